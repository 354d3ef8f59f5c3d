package dev.sluice.orchestration.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.sluice.config.ConfigException;
import dev.sluice.ingestion.expr.ExpressionException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** The {@code sluice} command: runs pipelines of a config, checks configs and inspects pipelines and tables. */
@Command(name = "sluice", mixinStandardHelpOptions = true, version = "sluice 0.1.0",
    description = "Runs bronze -> silver -> gold pipelines as exactly-once streaming queries into Delta tables.",
    footer = {"", "Exit codes: 0 done, 1 a run or read failed, 2 bad usage or config.",
        "Start with: sluice demo"})
public final class SluiceCli implements Callable<Integer> {
  @Option(names = {"-q", "--quiet"}, scope = ScopeType.INHERIT,
      description = "Print only results and errors: no progress, no hints.")
  boolean quiet;

  @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
      description = "Log the engine's activity and print stack traces with errors.")
  boolean verbose;

  @Spec
  CommandSpec spec;

  /**
   * The subcommands, in the order the usage lists them. Not in {@code @Command(subcommands)}: picocli would build the
   * model of every one by reflection on each start (picocli's Java 5 class files can't go into the class archive
   * either), and a run names one.
   */
  private static final List<Class<?>> SUBCOMMANDS = List.of(RunCommand.class, ServeCommand.class,
      ValidateCommand.class, StatusCommand.class, RunsCommand.class, TablesCommand.class, HistoryCommand.class,
      ReadCommand.class, StateCommand.class, FsckCommand.class, OptimizeCommand.class, VacuumCommand.class,
      DiagnoseCommand.class, DemoCommand.class, ProduceDemoCommand.class, CommandLine.HelpCommand.class);

  private Terminal terminal;

  /** Runs a command and exits with its exit code. */
  public static void main(String[] args) {
    CliLogging.ownsProcess();
    ShortRunCompiler.ownsProcess();
    CompilerRestart.commandArgs(args);
    CompilerRestart.haltWithParent();
    System.exit(execute(args, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
        new PrintWriter(System.err, true, StandardCharsets.UTF_8), System.console() != null));
  }

  /** Runs a command writing to {@code out} and {@code err}; returns the exit code. */
  public static int execute(String[] args, PrintWriter out, PrintWriter err, boolean interactive) {
    SluiceCli root = new SluiceCli();
    CommandLine cli = new CommandLine(root);
    addSubcommands(cli, args);
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionStrategy(parsed -> {
      root.terminal = new Terminal(out, err, root.quiet, root.verbose, interactive);
      configureLogging(root.quiet, root.verbose);
      return new CommandLine.RunLast().execute(parsed);
    });
    cli.setExecutionExceptionHandler((e, command, parsed) -> root.report(e, err));
    return cli.execute(args);
  }

  /**
   * Adds the subcommand {@code args} name, or all of them when they name none (the usage, a typo's suggestions and
   * {@code help} want the whole list). The root's options are flags, so the first argument that is not an option
   * is the subcommand's name.
   */
  static void addSubcommands(CommandLine cli, String[] args) {
    String named = Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse(null);
    List<Class<?>> chosen = SUBCOMMANDS.stream()
        .filter(c -> c.getAnnotation(Command.class).name().equals(named) && !named.equals("help"))
        .toList();
    for (Class<?> c : chosen.isEmpty() ? SUBCOMMANDS : chosen) {
      cli.addSubcommand(c);
    }
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return ExitCodes.USAGE;
  }

  Terminal terminal() {
    return terminal;
  }

  private int report(Exception e, PrintWriter err) {
    int code;
    String message;
    if (e instanceof ConfigException c) {
      code = ExitCodes.USAGE;
      message = c.getMessage();
    } else if (e instanceof CliException c) {
      code = c.exitCode();
      message = "error: " + c.getMessage();
    } else if (e instanceof ExpressionException x) {
      code = ExitCodes.USAGE;
      message = "error: " + x.getMessage();
    } else {
      code = ExitCodes.FAILED;
      message = "error: " + describe(e);
    }
    err.println(message);
    if (verbose) {
      e.printStackTrace(err);
    } else if (code == ExitCodes.FAILED && !(e instanceof CliException)) {
      err.println("(run with --verbose for details)");
    }
    err.flush();
    return code;
  }

  /** The exception's message and, when they add something, its causes' (one line each). */
  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder(e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
    Throwable c = e.getCause();
    for (int depth = 0; c != null && c != e && depth < 3; depth++, c = c.getCause()) {
      String m = c.getMessage() != null ? c.getMessage() : c.getClass().getSimpleName();
      if (!sb.toString().contains(m)) {
        sb.append("\n  caused by: ").append(m);
      }
    }
    return sb.toString();
  }

  private static void configureLogging(boolean quiet, boolean verbose) {
    if (!(LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext)) {
      return;
    }
    if (verbose) {
      ((Logger) LoggerFactory.getLogger("dev.sluice")).setLevel(Level.INFO);
    } else if (quiet) {
      ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.ERROR);
    }
  }
}
