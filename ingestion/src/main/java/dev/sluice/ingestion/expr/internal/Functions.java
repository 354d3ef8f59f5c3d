package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.ExpressionException;
import dev.sluice.table.expressions.CompareOp;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TrimFunction;

/** The SQL functions: name, argument count and how each binds its arguments into a node. */
final class Functions {
  /** Builds the node of one call whose arguments are already bound. */
  private interface Builder {
    Node build(Node[] args, Call call);
  }

  /** One call site, for casts and error messages. */
  record Call(Function function, ExpressionBinder binder, String name) {
    Node cast(Node n, DataType to) {
      return binder.castTo(n, to, function);
    }

    ExpressionException error(String problem) {
      return Errors.at(binder.text(), function, problem);
    }
  }

  private record Definition(int minArgs, int maxArgs, Builder builder) {}

  private static final Map<String, Definition> FUNCTIONS = new TreeMap<>();

  static {
    define("coalesce", 1, Integer.MAX_VALUE, Functions::coalesce);
    define("nullif", 2, 2, Functions::nullIf);
    define("lower", 1, 1, (a, c) -> text(a[0], c, s -> ((String) s).toLowerCase(Locale.ROOT)));
    define("upper", 1, 1, (a, c) -> text(a[0], c, s -> ((String) s).toUpperCase(Locale.ROOT)));
    define("trim", 1, 1, (a, c) -> text(a[0], c, s -> strip((String) s, true, true)));
    define("ltrim", 1, 1, (a, c) -> text(a[0], c, s -> strip((String) s, true, false)));
    define("rtrim", 1, 1, (a, c) -> text(a[0], c, s -> strip((String) s, false, true)));
    define("length", 1, 1, (a, c) -> new FunctionNodes.Unary(PrimitiveType.INTEGER, false, c.cast(a[0], PrimitiveType.STRING),
        s -> ((String) s).codePointCount(0, ((String) s).length())));
    define("substring", 2, 3, Functions::substring);
    define("substr", 2, 3, Functions::substring);
    define("concat", 1, Integer.MAX_VALUE, (a, c) -> {
      Node[] texts = new Node[a.length];
      for (int i = 0; i < a.length; i++) {
        texts[i] = c.cast(a[i], PrimitiveType.STRING);
      }
      return new FunctionNodes.Concat(texts);
    });
    define("abs", 1, 1, Functions::abs);
    define("round", 1, 2, Functions::round);
    define("floor", 1, 1, (a, c) -> floorOrCeil(a[0], c, RoundingMode.FLOOR));
    define("ceil", 1, 1, (a, c) -> floorOrCeil(a[0], c, RoundingMode.CEILING));
    define("ceiling", 1, 1, (a, c) -> floorOrCeil(a[0], c, RoundingMode.CEILING));
    define("to_timestamp", 1, 2, Functions::toTimestamp);
    define("timestamp_seconds", 1, 1, (a, c) -> fromEpoch(a[0], c, 0));
    define("timestamp_millis", 1, 1, (a, c) -> fromEpoch(a[0], c, 3));
    define("timestamp_micros", 1, 1, (a, c) -> fromEpoch(a[0], c, 6));
    define("unix_seconds", 1, 1, (a, c) -> toEpoch(a[0], c, 1_000_000L));
    define("unix_millis", 1, 1, (a, c) -> toEpoch(a[0], c, 1_000L));
    define("unix_micros", 1, 1, (a, c) -> toEpoch(a[0], c, 1L));
    define("to_date", 1, 2, Functions::toDate);
    define("date_trunc", 2, 2, Functions::dateTrunc);
    define("year", 1, 1, (a, c) -> field(a[0], c, OffsetDateTime::getYear));
    define("month", 1, 1, (a, c) -> field(a[0], c, OffsetDateTime::getMonthValue));
    define("day", 1, 1, (a, c) -> field(a[0], c, OffsetDateTime::getDayOfMonth));
    define("dayofmonth", 1, 1, (a, c) -> field(a[0], c, OffsetDateTime::getDayOfMonth));
    define("hour", 1, 1, (a, c) -> field(a[0], c, OffsetDateTime::getHour));
    define("minute", 1, 1, (a, c) -> field(a[0], c, OffsetDateTime::getMinute));
    define("second", 1, 1, (a, c) -> field(a[0], c, OffsetDateTime::getSecond));
    define("current_timestamp", 0, 0, (a, c) -> new FunctionNodes.CurrentTimestamp());
    define("now", 0, 0, (a, c) -> new FunctionNodes.CurrentTimestamp());
    define("current_date", 0, 0, (a, c) -> currentDate());
    define("get_json_object", 2, 2, Functions::jsonObject);
  }

  private Functions() {}

  private static void define(String name, int minArgs, int maxArgs, Builder builder) {
    FUNCTIONS.put(name, new Definition(minArgs, maxArgs, builder));
  }

  static Node bind(Function f, ExpressionBinder binder) {
    String name = f.getName().toLowerCase(Locale.ROOT);
    Definition d = FUNCTIONS.get(name);
    if (d == null) {
      throw Errors.unknownFunction(binder.text(), f, f.getName(), FUNCTIONS.keySet());
    }
    if (f.isDistinct() || f.isAllColumns()) {
      throw Errors.at(binder.text(), f, "`" + f.getName() + "` does not take DISTINCT or *");
    }
    List<Node> args = new ArrayList<>();
    if (f.getParameters() != null) {
      for (Expression e : f.getParameters()) {
        args.add(binder.bind(e));
      }
    }
    if (args.size() < d.minArgs() || args.size() > d.maxArgs()) {
      String expected = d.minArgs() == d.maxArgs() ? String.valueOf(d.minArgs())
          : d.maxArgs() == Integer.MAX_VALUE ? "at least " + d.minArgs() : d.minArgs() + " to " + d.maxArgs();
      throw Errors.at(binder.text(), f, "Function `" + name + "` takes " + expected + " argument(s) but got " + args.size());
    }
    return d.builder().build(args.toArray(new Node[0]), new Call(f, binder, name));
  }

  /** {@code TRIM([BOTH|LEADING|TRAILING] [chars FROM] s)}, which the parser gives its own node. */
  static Node trim(TrimFunction t, ExpressionBinder binder) {
    boolean fromForm = t.getFromExpression() != null;
    Node subject = binder.toText(binder.bind(fromForm ? t.getFromExpression() : t.getExpression()), t);
    String chars = " ";
    if (fromForm) {
      Node c = binder.bind(t.getExpression());
      if (!(c instanceof LiteralNode lit) || !(lit.value() instanceof String s)) {
        throw Errors.at(binder.text(), t, "TRIM ... FROM needs a string literal of the characters to remove");
      }
      chars = s;
    }
    TrimFunction.TrimSpecification spec = t.getTrimSpecification();
    boolean leading = spec == null || spec != TrimFunction.TrimSpecification.TRAILING;
    boolean trailing = spec == null || spec != TrimFunction.TrimSpecification.LEADING;
    String remove = chars;
    return new FunctionNodes.Unary(PrimitiveType.STRING, false, subject, s -> strip((String) s, remove, leading, trailing));
  }

  /** {@code current_timestamp} and {@code current_date} written without parentheses. */
  static Node timeKey(TimeKeyExpression t, ExpressionBinder binder) {
    String key = t.getStringValue().replace("()", "").trim().toLowerCase(Locale.ROOT);
    return switch (key) {
      case "current_timestamp" -> new FunctionNodes.CurrentTimestamp();
      case "current_date" -> currentDate();
      default -> throw Errors.at(binder.text(), t, "`" + t.getStringValue()
          + "` is not supported; use current_timestamp() or current_date()");
    };
  }

  private static Node currentDate() {
    return new FunctionNodes.Unary(PrimitiveType.DATE, false, new FunctionNodes.CurrentTimestamp(),
        t -> DateTimes.toDate((Instant) t));
  }

  private static Node text(Node arg, Call c, java.util.function.UnaryOperator<Object> fn) {
    return new FunctionNodes.Unary(PrimitiveType.STRING, false, c.cast(arg, PrimitiveType.STRING), fn);
  }

  private static String strip(String s, boolean leading, boolean trailing) {
    return strip(s, " ", leading, trailing);
  }

  private static String strip(String s, String chars, boolean leading, boolean trailing) {
    int start = 0;
    int end = s.length();
    while (leading && start < end && chars.indexOf(s.charAt(start)) >= 0) {
      start++;
    }
    while (trailing && end > start && chars.indexOf(s.charAt(end - 1)) >= 0) {
      end--;
    }
    return s.substring(start, end);
  }

  private static Node coalesce(Node[] args, Call c) {
    DataType type = null;
    for (Node n : args) {
      if (!n.isNullLiteral()) {
        type = type == null ? n.type : c.binder().commonType(type, n.type, c.function());
      }
    }
    if (type == null) {
      return LiteralNode.of(null, PrimitiveType.STRING);
    }
    Node[] typed = new Node[args.length];
    for (int i = 0; i < args.length; i++) {
      typed[i] = c.cast(args[i], type);
    }
    return new FunctionNodes.Coalesce(type, typed);
  }

  private static Node nullIf(Node[] args, Call c) {
    Node equal = c.binder().compare(args[0], CompareOp.EQ, args[1], c.function());
    DataType type = args[0].isNullLiteral() ? PrimitiveType.STRING : args[0].type;
    return new CaseNode(new Node[] {equal}, new Node[] {LiteralNode.of(null, type)}, c.cast(args[0], type), type);
  }

  /** Spark's {@code substring}: 1-based, 0 acts as 1, a negative start counts from the end. */
  private static Node substring(Node[] args, Call c) {
    Node s = c.cast(args[0], PrimitiveType.STRING);
    Node pos = c.cast(args[1], PrimitiveType.INTEGER);
    if (args.length == 2) {
      return new FunctionNodes.Binary(PrimitiveType.STRING, false, s, pos,
          (a, b) -> substring((String) a, (Integer) b, Integer.MAX_VALUE));
    }
    Node len = c.cast(args[2], PrimitiveType.INTEGER);
    return new FunctionNodes.Ternary(PrimitiveType.STRING, false, s, pos, len,
        (a, b, l) -> substring((String) a, (Integer) b, (Integer) l));
  }

  static String substring(String s, int pos, int length) {
    int chars = s.codePointCount(0, s.length());
    int start = pos > 0 ? pos - 1 : pos < 0 ? chars + pos : 0;
    long end = length == Integer.MAX_VALUE ? Integer.MAX_VALUE : (long) start + length;
    start = Math.max(start, 0);
    int stop = (int) Math.min(end, chars);
    if (start >= stop) {
      return "";
    }
    return s.substring(s.offsetByCodePoints(0, start), s.offsetByCodePoints(0, stop));
  }

  private static Node numeric(Node arg, Call c) {
    if (arg.isNullLiteral() || arg.type == PrimitiveType.STRING) {
      return c.cast(arg, PrimitiveType.DOUBLE);
    }
    if (!Types.isNumeric(arg.type)) {
      throw c.error("Function `" + c.name() + "` needs a number but got " + arg.type.typeName());
    }
    return arg;
  }

  private static Node abs(Node[] args, Call c) {
    Node n = numeric(args[0], c);
    java.util.function.UnaryOperator<Object> conversion = Casts.numeric(n.type);
    return new FunctionNodes.Unary(n.type, false, n, v -> conversion.apply(absolute(v)));
  }

  private static Object absolute(Object v) {
    if (v instanceof BigDecimal d) {
      return d.abs();
    }
    if (v instanceof Double || v instanceof Float) {
      return Math.abs(((Number) v).doubleValue());
    }
    return Math.abs(((Number) v).longValue());
  }

  private static Node round(Node[] args, Call c) {
    Node n = numeric(args[0], c);
    int digits = 0;
    if (args.length == 2) {
      if (!(args[1] instanceof LiteralNode lit) || !(lit.value() instanceof Integer d)) {
        throw c.error("The second argument of `round` must be an integer literal, the number of decimal places");
      }
      digits = d;
    }
    int scale = digits;
    DataType type = n.type;
    if (type instanceof DecimalType d) {
      int newScale = Math.max(0, Math.min(d.scale(), scale));
      type = Types.decimal(d.precision() - d.scale() + newScale + 1, newScale);
    }
    DataType resultType = type;
    java.util.function.UnaryOperator<Object> conversion = Casts.numeric(type);
    return new FunctionNodes.Unary(type, false, n, v -> {
      if (v instanceof Double x && (x.isNaN() || x.isInfinite()) || v instanceof Float f && (f.isNaN() || f.isInfinite())) {
        return v;
      }
      BigDecimal rounded = Casts.toBigDecimal(v).setScale(scale, RoundingMode.HALF_UP);
      return resultType instanceof DecimalType d ? Casts.toDecimal(rounded, d) : conversion.apply(
          Types.isIntegral(resultType) ? (Object) rounded.longValue() : rounded);
    });
  }

  private static Node floorOrCeil(Node arg, Call c, RoundingMode mode) {
    Node n = numeric(arg, c);
    if (n.type instanceof DecimalType d) {
      DecimalType type = Types.decimal(d.precision() - d.scale() + 1, 0);
      return new FunctionNodes.Unary(type, false, n, v -> ((BigDecimal) v).setScale(0, mode));
    }
    return new FunctionNodes.Unary(PrimitiveType.LONG, false, n, v -> {
      if (v instanceof Double || v instanceof Float) {
        double x = ((Number) v).doubleValue();
        return (long) (mode == RoundingMode.FLOOR ? Math.floor(x) : Math.ceil(x));
      }
      return ((Number) v).longValue();
    });
  }

  private static Node toTimestamp(Node[] args, Call c) {
    Node arg = args[0];
    if (arg.type != PrimitiveType.STRING || arg.isNullLiteral()) {
      if (args.length == 2) {
        throw c.error("`to_timestamp` takes a format only with a string argument, but got " + arg.type.typeName());
      }
      return c.cast(arg, PrimitiveType.TIMESTAMP);
    }
    if (args.length == 1) {
      return new FunctionNodes.Unary(PrimitiveType.TIMESTAMP, true, arg, s -> DateTimes.parseTimestamp((String) s));
    }
    return withPattern(arg, args[1], c, PrimitiveType.TIMESTAMP, (text, f) -> DateTimes.parseTimestamp(text, f));
  }

  /**
   * {@code timestamp_seconds/millis/micros(n)}: Spark's functions for numbers in a known epoch unit (seconds may
   * have a fraction; millis and micros are integral). Null outside years 0001-9999, like CAST.
   */
  private static Node fromEpoch(Node arg, Call c, int exponent) {
    boolean fractional = exponent == 0 && Types.isNumeric(arg.type);
    if (!arg.isNullLiteral() && !(Types.isIntegral(arg.type) || fractional)) {
      throw c.error("Function `" + c.name() + "` needs " + (exponent == 0 ? "a number" : "an integral number")
          + " of " + c.name().substring("timestamp_".length()) + " since 1970-01-01 UTC but got " + arg.type.typeName());
    }
    return new FunctionNodes.Unary(PrimitiveType.TIMESTAMP, true, arg,
        v -> v instanceof Double x && !Double.isFinite(x) || v instanceof Float f && !Float.isFinite(f)
            ? null : DateTimes.fromEpoch(Casts.toBigDecimal(v), exponent));
  }

  /** {@code unix_seconds/millis/micros(ts)}: the timestamp as a whole number of units since the epoch (floor). */
  private static Node toEpoch(Node arg, Call c, long microsPerUnit) {
    if (arg.type != PrimitiveType.TIMESTAMP && !arg.isNullLiteral()) {
      throw c.error("Function `" + c.name() + "` needs a timestamp but got " + arg.type.typeName());
    }
    return new FunctionNodes.Unary(PrimitiveType.LONG, false, c.cast(arg, PrimitiveType.TIMESTAMP),
        v -> Math.floorDiv(DateTimes.toEpochMicros((Instant) v), microsPerUnit));
  }

  private static Node toDate(Node[] args, Call c) {
    Node arg = args[0];
    if (arg.type != PrimitiveType.STRING || arg.isNullLiteral()) {
      if (args.length == 2) {
        throw c.error("`to_date` takes a format only with a string argument, but got " + arg.type.typeName());
      }
      return c.cast(arg, PrimitiveType.DATE);
    }
    if (args.length == 1) {
      return new FunctionNodes.Unary(PrimitiveType.DATE, true, arg, s -> DateTimes.parseDate((String) s));
    }
    return withPattern(arg, args[1], c, PrimitiveType.DATE, (text, f) -> {
      Instant t = DateTimes.parseTimestamp(text, f);
      return t == null ? null : DateTimes.toDate(t);
    });
  }

  private interface PatternParse {
    Object parse(String text, DateTimeFormatter format);
  }

  /** A pattern given as a literal is compiled once and checked now; one from a column per row. */
  private static Node withPattern(Node text, Node pattern, Call c, DataType type, PatternParse parse) {
    Node p = c.cast(pattern, PrimitiveType.STRING);
    if (p instanceof LiteralNode lit && lit.value() != null) {
      DateTimeFormatter format;
      try {
        format = DateTimes.pattern((String) lit.value());
      } catch (IllegalArgumentException e) {
        throw c.error("Invalid date/time pattern '" + lit.value() + "' for `" + c.name() + "`: " + e.getMessage()
            + "; use java.time.format.DateTimeFormatter letters such as yyyy-MM-dd HH:mm:ss");
      }
      return new FunctionNodes.Unary(type, true, text, s -> parse.parse((String) s, format));
    }
    return new FunctionNodes.Binary(type, true, text, p, (s, f) -> {
      try {
        return parse.parse((String) s, DateTimes.pattern((String) f));
      } catch (IllegalArgumentException e) {
        return null;
      }
    });
  }

  private static Node dateTrunc(Node[] args, Call c) {
    if (!(args[0] instanceof LiteralNode lit) || !(lit.value() instanceof String unit) || !DateTimes.isTruncationUnit(unit)) {
      throw c.error("The first argument of `date_trunc` must be one of 'second', 'minute', 'hour', 'day', 'week', "
          + "'month', 'quarter', 'year'");
    }
    Node t = c.cast(args[1], PrimitiveType.TIMESTAMP);
    return new FunctionNodes.Unary(PrimitiveType.TIMESTAMP, false, t, v -> DateTimes.truncate(unit, (Instant) v));
  }

  private static Node field(Node arg, Call c, ToIntFunction<OffsetDateTime> field) {
    if (!(arg.type == PrimitiveType.TIMESTAMP || arg.type == PrimitiveType.DATE || arg.type == PrimitiveType.STRING
        || arg.isNullLiteral())) {
      throw c.error("Function `" + c.name() + "` needs a timestamp or date but got " + arg.type.typeName());
    }
    Node t = c.cast(arg, PrimitiveType.TIMESTAMP);
    return new FunctionNodes.Unary(PrimitiveType.INTEGER, false, t, v -> field.applyAsInt(DateTimes.utc((Instant) v)));
  }

  private static Node jsonObject(Node[] args, Call c) {
    Node json = c.cast(args[0], PrimitiveType.STRING);
    Node path = c.cast(args[1], PrimitiveType.STRING);
    if (path instanceof LiteralNode lit && lit.value() != null) {
      JsonPath compiled = JsonPath.parse((String) lit.value());
      if (compiled == null) {
        throw c.error("Invalid JSON path '" + lit.value() + "' for `get_json_object`; write e.g. '$.a.b[0]'");
      }
      return new FunctionNodes.Unary(PrimitiveType.STRING, true, json, s -> compiled.extract((String) s));
    }
    return new FunctionNodes.Binary(PrimitiveType.STRING, true, json, path, (s, p) -> {
      JsonPath compiled = JsonPath.parse((String) p);
      return compiled == null ? null : compiled.extract((String) s);
    });
  }

  static java.util.Set<String> names() {
    return FUNCTIONS.keySet();
  }
}
