package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.ExpressionException;
import dev.sluice.table.expressions.CompareOp;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TrimFunction;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;

/**
 * Turns a JSqlParser tree into a {@link Node} tree for one schema: resolves columns (exact name,
 * then ignoring case), types every node, and inserts the casts that Spark's implicit coercion would.
 * One binder binds one expression.
 */
final class ExpressionBinder {
  private static final Pattern TYPE_NAME = Pattern.compile("(\\w+)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?");

  private final SqlText text;
  private final StructType schema;
  private final Set<String> referenced = new LinkedHashSet<>();

  ExpressionBinder(SqlText text, StructType schema) {
    this.text = text;
    this.schema = schema;
  }

  Set<String> referencedColumns() {
    return referenced;
  }

  SqlText text() {
    return text;
  }

  Node bind(Expression e) {
    if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
      return bind(p.get(0));
    }
    if (e instanceof Column c) {
      return column(c);
    }
    Node literal = literal(e);
    if (literal != null) {
      return literal;
    }
    if (e instanceof AndExpression a) {
      return LogicNodes.and(condition(a.getLeftExpression()), condition(a.getRightExpression()));
    }
    if (e instanceof OrExpression o) {
      return LogicNodes.or(condition(o.getLeftExpression()), condition(o.getRightExpression()));
    }
    if (e instanceof NotExpression n) {
      return new LogicNodes.Not(condition(n.getExpression()));
    }
    if (e instanceof IsNullExpression n) {
      return new LogicNodes.IsNull(bind(n.getLeftExpression()), n.isNot());
    }
    Optional<CompareOp> op = compareOp(e);
    if (op.isPresent()) {
      BinaryExpression b = (BinaryExpression) e;
      return compare(bind(b.getLeftExpression()), op.get(), bind(b.getRightExpression()), e);
    }
    Optional<ArithmeticNode.Op> arithmetic = arithmeticOp(e);
    if (arithmetic.isPresent()) {
      BinaryExpression b = (BinaryExpression) e;
      Node shifted = intervalArithmetic(b, arithmetic.get());
      if (shifted != null) {
        return shifted;
      }
      return arithmetic(bind(b.getLeftExpression()), arithmetic.get(), bind(b.getRightExpression()), e);
    }
    if (e instanceof Concat c) {
      return new FunctionNodes.Concat(new Node[] {toText(bind(c.getLeftExpression()), e), toText(bind(c.getRightExpression()), e)});
    }
    if (e instanceof SignedExpression s) {
      return signed(s);
    }
    if (e instanceof CastExpression c) {
      return cast(c);
    }
    if (e instanceof InExpression in) {
      return in(in);
    }
    if (e instanceof Between b) {
      return between(b);
    }
    if (e instanceof LikeExpression like) {
      return like(like);
    }
    if (e instanceof CaseExpression c) {
      return caseWhen(c);
    }
    if (e instanceof Function f) {
      return Functions.bind(f, this);
    }
    if (e instanceof TrimFunction t) {
      return Functions.trim(t, this);
    }
    if (e instanceof TimeKeyExpression t) {
      return Functions.timeKey(t, this);
    }
    if (e instanceof IntervalExpression) {
      throw Errors.at(text, e, "An interval `" + e + "` can only be added to or subtracted from a timestamp, e.g."
          + " `event_time + INTERVAL 10 MINUTES`; intervals are not column values");
    }
    throw Errors.at(text, e, "Unsupported SQL construct " + e.getClass().getSimpleName()
        + "; use comparisons, AND/OR/NOT, arithmetic, CASE, CAST, IN, BETWEEN, LIKE and the listed functions");
  }

  /** Binds {@code e} and requires a boolean result. */
  Node condition(Expression e) {
    Node n = bind(e);
    if (n.isNullLiteral()) {
      return LiteralNode.of(null, PrimitiveType.BOOLEAN);
    }
    if (n.type != PrimitiveType.BOOLEAN) {
      throw Errors.at(text, e, "Expected a boolean condition but `" + e + "` is " + n.type.typeName()
          + "; compare it with something, e.g. `" + e + " IS NOT NULL`");
    }
    return n;
  }

  private Node column(Column c) {
    String name = c.getUnquotedColumnName();
    if (c.getColumnName().startsWith("\"")) {
      // Spark reads "text" as a string literal, not as a name.
      return LiteralNode.of(name, PrimitiveType.STRING);
    }
    if (c.getTable() != null && c.getTable().getName() != null) {
      return qualified(c);
    }
    int ordinal = schema.indexOf(name);
    if (ordinal < 0) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.equals("current_timestamp") || lower.equals("current_date")) {
        return Functions.timeKey(new TimeKeyExpression(name), this);
      }
      throw Errors.unknownColumn(text, c, name, schema.fieldNames());
    }
    StructField field = schema.field(ordinal);
    referenced.add(field.name());
    return new ColumnNode(ordinal, field.type(), field.nullable());
  }

  /**
   * {@code a.b}: a column named {@code a.b} when the schema has one (a join's {@code alias.column}), else
   * field {@code b} of struct column {@code a} (nested: {@code a.b.c}).
   */
  private Node qualified(Column c) {
    List<String> parts = new ArrayList<>();
    for (String p : c.getFullyQualifiedName().split("\\.")) {
      parts.add(p.replace("`", ""));
    }
    String dotted = String.join(".", parts);
    int whole = schema.indexOf(dotted);
    if (whole >= 0) {
      referenced.add(schema.field(whole).name());
      return new ColumnNode(whole, schema.field(whole).type(), schema.field(whole).nullable());
    }
    int ordinal = schema.indexOf(parts.get(0));
    if (ordinal < 0) {
      throw Errors.unknownColumn(text, c, dotted, schema.fieldNames());
    }
    StructField field = schema.field(ordinal);
    referenced.add(field.name());
    Node node = new ColumnNode(ordinal, field.type(), field.nullable());
    String path = field.name();
    for (String name : parts.subList(1, parts.size())) {
      if (!(node.type instanceof StructType struct)) {
        throw Errors.at(text, c, "`" + path + "` is " + node.type.typeName() + ", not a struct, so `" + dotted
            + "` has no field " + name + "; refer to the column by name (quote names with dots in backquotes)");
      }
      int i = struct.indexOf(name);
      if (i < 0) {
        throw Errors.at(text, c, "Struct `" + path + "` has no field `" + name + "`; its fields are "
            + String.join(", ", struct.fieldNames()));
      }
      node = new FieldNode(node, i, struct.field(i).type(), struct.field(i).nullable());
      path = path + "." + struct.field(i).name();
    }
    return node;
  }

  /** {@code timestamp + interval}, {@code interval + timestamp}, {@code timestamp - interval}; null for other shapes. */
  private Node intervalArithmetic(BinaryExpression b, ArithmeticNode.Op op) {
    Expression l = b.getLeftExpression();
    Expression r = b.getRightExpression();
    IntervalExpression interval = r instanceof IntervalExpression ri ? ri
        : op == ArithmeticNode.Op.ADD && l instanceof IntervalExpression li ? li : null;
    if (interval == null) {
      return null;
    }
    if (op != ArithmeticNode.Op.ADD && op != ArithmeticNode.Op.SUBTRACT) {
      throw Errors.at(text, b, "An interval can only be added to or subtracted from a timestamp, not used with "
          + op.sql);
    }
    Long micros = Intervals.micros(interval);
    if (micros == null) {
      throw Errors.at(text, interval, "Cannot read the interval `" + interval + "`: write INTERVAL '10' MINUTE,"
          + " INTERVAL 10 MINUTES or INTERVAL '1 hour 30 minutes' (microseconds to weeks; months and years have no"
          + " fixed length)");
    }
    Node t = bind(interval == r ? l : r);
    if (t.type == PrimitiveType.DATE || t.type == PrimitiveType.STRING) {
      t = castTo(t, PrimitiveType.TIMESTAMP, b);
    }
    if (t.type != PrimitiveType.TIMESTAMP) {
      throw Errors.at(text, b, "An interval can only be added to a timestamp, but `" + (interval == r ? l : r)
          + "` is " + t.type.typeName() + "; cast it, e.g. CAST(x AS TIMESTAMP)");
    }
    return new IntervalArithmeticNode(t, op == ArithmeticNode.Op.SUBTRACT ? -micros : micros);
  }

  private Node literal(Expression e) {
    if (e instanceof LongValue v) {
      BigInteger i = new BigInteger(v.getStringValue());
      if (i.bitLength() < 32) {
        return LiteralNode.of(i.intValue(), PrimitiveType.INTEGER);
      }
      if (i.bitLength() < 64) {
        return LiteralNode.of(i.longValue(), PrimitiveType.LONG);
      }
      if (i.toString().length() > Types.MAX_PRECISION) {
        throw Errors.at(text, e, "Integer literal " + i + " has more than 38 digits");
      }
      return LiteralNode.of(new BigDecimal(i), DecimalType.of(Math.max(1, i.abs().toString().length()), 0));
    }
    if (e instanceof DoubleValue v) {
      return LiteralNode.of(v.getValue(), PrimitiveType.DOUBLE);
    }
    if (e instanceof StringValue s) {
      return LiteralNode.of(s.getValue().replace("''", "'"), PrimitiveType.STRING);
    }
    if (e instanceof BooleanValue b) {
      return LiteralNode.of(b.getValue(), PrimitiveType.BOOLEAN);
    }
    if (e instanceof NullValue) {
      return LiteralNode.untypedNull();
    }
    if (e instanceof DateTimeLiteralExpression d) {
      String value = d.getValue().replaceAll("^'|'$", "");
      return switch (d.getType()) {
        case DATE -> dateLiteral(value, e);
        case TIMESTAMP -> timestampLiteral(value, e);
        default -> throw Errors.at(text, e, d.getType() + " literals are not supported; use DATE or TIMESTAMP");
      };
    }
    return null;
  }

  private Node dateLiteral(String value, Expression at) {
    LocalDate date = DateTimes.parseDate(value);
    if (date == null) {
      throw Errors.at(text, at, "'" + value + "' is not a valid DATE literal; write DATE 'yyyy-MM-dd'");
    }
    return LiteralNode.of(date, PrimitiveType.DATE);
  }

  private Node timestampLiteral(String value, Expression at) {
    Instant instant = DateTimes.parseTimestamp(value);
    if (instant == null) {
      throw Errors.at(text, at, "'" + value + "' is not a valid TIMESTAMP literal; write TIMESTAMP "
          + "'yyyy-MM-dd HH:mm:ss[.SSSSSS]' (UTC) or an ISO-8601 instant");
    }
    return LiteralNode.of(instant, PrimitiveType.TIMESTAMP);
  }

  private Node signed(SignedExpression s) {
    Node child = bind(s.getExpression());
    if (s.getSign() == '+') {
      return requireNumeric(child, s);
    }
    if (s.getSign() != '-') {
      throw Errors.at(text, s, "Operator " + s.getSign() + " is not supported");
    }
    child = requireNumeric(child, s);
    if (child instanceof LiteralNode lit && lit.value() != null) {
      return LiteralNode.of(negate(lit.value()), child.type);
    }
    return new ArithmeticNode(LiteralNode.of(0, PrimitiveType.INTEGER), ArithmeticNode.Op.SUBTRACT, child,
        child.type == PrimitiveType.BYTE || child.type == PrimitiveType.SHORT ? PrimitiveType.INTEGER : child.type);
  }

  private static Object negate(Object v) {
    if (v instanceof Integer i) {
      return -i;
    }
    if (v instanceof Long l) {
      return -l;
    }
    if (v instanceof Double d) {
      return -d;
    }
    if (v instanceof Float f) {
      return -f;
    }
    return ((BigDecimal) v).negate();
  }

  private Node requireNumeric(Node n, Expression at) {
    if (n.type == PrimitiveType.STRING) {
      return castTo(n, PrimitiveType.DOUBLE, at);
    }
    if (!Types.isNumeric(n.type)) {
      throw Errors.at(text, at, "Expected a number but got " + n.type.typeName());
    }
    return n;
  }

  private Node cast(CastExpression c) {
    Node child = bind(c.getLeftExpression());
    DataType target = parseType(c, c.getColDataType().toString());
    if (c.isImplicitCast() && child instanceof LiteralNode lit && lit.value() instanceof String s) {
      // DATE '...' and TIMESTAMP '...' literals must be valid, unlike CAST of text.
      if (target == PrimitiveType.DATE) {
        return dateLiteral(s, c);
      }
      if (target == PrimitiveType.TIMESTAMP) {
        return timestampLiteral(s, c);
      }
    }
    return castTo(child, target, c);
  }

  private DataType parseType(Expression at, String spelled) {
    Matcher m = TYPE_NAME.matcher(spelled.trim());
    if (!m.matches()) {
      throw Errors.at(text, at, "Unknown type `" + spelled + "`");
    }
    String name = m.group(1).toLowerCase(Locale.ROOT);
    return switch (name) {
      case "string", "varchar", "char", "text" -> PrimitiveType.STRING;
      case "int", "integer" -> PrimitiveType.INTEGER;
      case "bigint", "long" -> PrimitiveType.LONG;
      case "smallint", "short" -> PrimitiveType.SHORT;
      case "tinyint", "byte" -> PrimitiveType.BYTE;
      case "double" -> PrimitiveType.DOUBLE;
      case "float", "real" -> PrimitiveType.FLOAT;
      case "boolean" -> PrimitiveType.BOOLEAN;
      case "date" -> PrimitiveType.DATE;
      case "timestamp" -> PrimitiveType.TIMESTAMP;
      case "binary" -> PrimitiveType.BINARY;
      case "decimal", "dec", "numeric" -> {
        int precision = m.group(2) == null ? 10 : Integer.parseInt(m.group(2));
        int scale = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        try {
          yield DecimalType.of(precision, scale);
        } catch (IllegalArgumentException e) {
          throw Errors.at(text, at, e.getMessage());
        }
      }
      default -> throw Errors.at(text, at, "Unknown type `" + spelled + "`; use string, int, bigint, smallint, "
          + "tinyint, double, float, boolean, date, timestamp, binary or decimal(p,s)");
    };
  }

  /** {@code n} converted to {@code to}; constants are converted now. */
  Node castTo(Node n, DataType to, Expression at) {
    if (n.type.equals(to) && !n.isNullLiteral()) {
      return n;
    }
    if (n.isNullLiteral()) {
      return LiteralNode.of(null, to);
    }
    UnaryOperator<Object> conversion = Casts.caster(n.type, to);
    if (conversion == null) {
      throw Errors.at(text, at, "Cannot cast " + n.type.typeName() + " to " + to.typeName());
    }
    if (n instanceof LiteralNode lit) {
      return LiteralNode.of(lit.value() == null ? null : conversion.apply(lit.value()), to);
    }
    return new CastNode(n, to, conversion);
  }

  Node toText(Node n, Expression at) {
    return castTo(n, PrimitiveType.STRING, at);
  }

  private static Optional<CompareOp> compareOp(Expression e) {
    if (e instanceof EqualsTo) {
      return Optional.of(CompareOp.EQ);
    }
    if (e instanceof NotEqualsTo) {
      return Optional.of(CompareOp.NE);
    }
    if (e instanceof GreaterThan) {
      return Optional.of(CompareOp.GT);
    }
    if (e instanceof GreaterThanEquals) {
      return Optional.of(CompareOp.GE);
    }
    if (e instanceof MinorThan) {
      return Optional.of(CompareOp.LT);
    }
    if (e instanceof MinorThanEquals) {
      return Optional.of(CompareOp.LE);
    }
    return Optional.empty();
  }

  private static Optional<ArithmeticNode.Op> arithmeticOp(Expression e) {
    if (e instanceof Addition) {
      return Optional.of(ArithmeticNode.Op.ADD);
    }
    if (e instanceof Subtraction) {
      return Optional.of(ArithmeticNode.Op.SUBTRACT);
    }
    if (e instanceof Multiplication) {
      return Optional.of(ArithmeticNode.Op.MULTIPLY);
    }
    if (e instanceof Division) {
      return Optional.of(ArithmeticNode.Op.DIVIDE);
    }
    if (e instanceof Modulo) {
      return Optional.of(ArithmeticNode.Op.REMAINDER);
    }
    return Optional.empty();
  }

  Node compare(Node left, CompareOp op, Node right, Expression at) {
    Node[] both = comparable(left, right, at);
    return new CompareNode(both[0], op, both[1]);
  }

  /** Both operands brought to the type they are compared in. */
  Node[] comparable(Node left, Node right, Expression at) {
    if (left.isNullLiteral() && right.isNullLiteral()) {
      return new Node[] {LiteralNode.of(null, PrimitiveType.STRING), LiteralNode.of(null, PrimitiveType.STRING)};
    }
    if (left.isNullLiteral()) {
      return new Node[] {LiteralNode.of(null, right.type), right};
    }
    if (right.isNullLiteral()) {
      return new Node[] {left, LiteralNode.of(null, left.type)};
    }
    DataType target = comparisonType(left, right, at);
    if (!(target.isOrderable() || target == PrimitiveType.BOOLEAN)) {
      throw Errors.at(text, at, "Values of type " + target.typeName() + " cannot be compared");
    }
    return new Node[] {castChecked(left, target, at), castChecked(right, target, at)};
  }

  private DataType comparisonType(Node left, Node right, Expression at) {
    DataType l = left.type;
    DataType r = right.type;
    if (l.equals(r)) {
      return l;
    }
    if (Types.isNumeric(l) && Types.isNumeric(r)) {
      return Types.widerNumeric(l, r);
    }
    if (Types.isDateTime(l) && Types.isDateTime(r)) {
      return PrimitiveType.TIMESTAMP;
    }
    if (l == PrimitiveType.STRING || r == PrimitiveType.STRING) {
      Node textSide = l == PrimitiveType.STRING ? left : right;
      DataType other = l == PrimitiveType.STRING ? r : l;
      if (Types.isNumeric(other)) {
        // Spark compares text with numbers as numbers; keep integer comparison exact for integer text.
        BigDecimal n = textSide instanceof LiteralNode lit ? Casts.parseNumber((String) lit.value()) : null;
        if (textSide instanceof LiteralNode && n == null) {
          throw incomparable(left, right, at);
        }
        boolean integral = n != null && Types.isIntegral(other) && n.stripTrailingZeros().scale() <= 0;
        return integral ? PrimitiveType.LONG : other instanceof DecimalType && n != null ? other : PrimitiveType.DOUBLE;
      }
      if (other == PrimitiveType.DATE || other == PrimitiveType.TIMESTAMP || other == PrimitiveType.BOOLEAN) {
        return other;
      }
    }
    throw incomparable(left, right, at);
  }

  /** Like {@link #castTo}, but a literal that does not convert is an error, not a NULL. */
  private Node castChecked(Node n, DataType to, Expression at) {
    Node out = castTo(n, to, at);
    if (n instanceof LiteralNode lit && lit.value() != null && ((LiteralNode) out).value() == null) {
      throw Errors.at(text, at, "Cannot compare with '" + lit.value() + "': it is not a valid " + to.typeName()
          + "; write a " + to.typeName() + " literal");
    }
    return out;
  }

  private ExpressionException incomparable(Node left, Node right, Expression at) {
    String value = right instanceof LiteralNode lit ? " '" + lit.value() + "'" : "";
    return Errors.at(text, at, "Cannot compare " + left.type.typeName() + " with " + right.type.typeName() + value
        + "; cast one side so that both have the same type");
  }

  private Node arithmetic(Node left, ArithmeticNode.Op op, Node right, Expression at) {
    if (left.isNullLiteral() && right.isNullLiteral()) {
      return LiteralNode.of(null, PrimitiveType.DOUBLE);
    }
    left = left.isNullLiteral() ? LiteralNode.of(null, right.type) : left;
    right = right.isNullLiteral() ? LiteralNode.of(null, left.type) : right;
    for (Node n : new Node[] {left, right}) {
      if (n.type != PrimitiveType.STRING && !Types.isNumeric(n.type)) {
        throw Errors.at(text, at, "Operator " + op.sql + " needs numbers but got " + left.type.typeName()
            + " " + op.sql + " " + right.type.typeName());
      }
    }
    // Spark reads text operands of arithmetic as double.
    left = left.type == PrimitiveType.STRING ? castTo(left, PrimitiveType.DOUBLE, at) : left;
    right = right.type == PrimitiveType.STRING ? castTo(right, PrimitiveType.DOUBLE, at) : right;
    DataType result = resultType(left.type, op, right.type);
    if (!(result instanceof DecimalType)) {
      left = castTo(left, result, at);
      right = castTo(right, result, at);
    }
    return new ArithmeticNode(left, op, right, result);
  }

  /** Spark's result types, except that byte and short arithmetic gives integer. */
  private static DataType resultType(DataType l, ArithmeticNode.Op op, DataType r) {
    DataType wider = Types.widerNumeric(l, r);
    if (!(wider instanceof DecimalType)) {
      if (op == ArithmeticNode.Op.DIVIDE) {
        return PrimitiveType.DOUBLE;
      }
      return wider == PrimitiveType.BYTE || wider == PrimitiveType.SHORT ? PrimitiveType.INTEGER : wider;
    }
    DecimalType a = Types.asDecimal(l);
    DecimalType b = Types.asDecimal(r);
    int p1 = a.precision();
    int s1 = a.scale();
    int p2 = b.precision();
    int s2 = b.scale();
    return switch (op) {
      case ADD, SUBTRACT -> {
        int scale = Math.max(s1, s2);
        yield Types.decimal(Math.max(p1 - s1, p2 - s2) + scale + 1, scale);
      }
      case MULTIPLY -> Types.decimal(p1 + p2 + 1, s1 + s2);
      case DIVIDE -> {
        int scale = Math.max(6, s1 + p2 + 1);
        yield Types.decimal(p1 - s1 + s2 + scale, scale);
      }
      case REMAINDER -> {
        int scale = Math.max(s1, s2);
        yield Types.decimal(Math.min(p1 - s1, p2 - s2) + scale, scale);
      }
    };
  }

  private Node in(InExpression in) {
    if (!(in.getRightExpression() instanceof ExpressionList<?> list)) {
      throw Errors.at(text, in, "IN needs a list of values, e.g. `status IN ('a', 'b')`; subqueries are not supported");
    }
    Node value = bind(in.getLeftExpression());
    List<Node> elements = new ArrayList<>();
    for (Expression e : list) {
      elements.add(bind(e));
    }
    DataType type = value.isNullLiteral() ? null : value.type;
    for (Node n : elements) {
      if (!n.isNullLiteral()) {
        type = type == null ? n.type : commonType(type, n.type, in);
      }
    }
    if (type == null) {
      return LiteralNode.of(null, PrimitiveType.BOOLEAN);
    }
    Node[] typed = new Node[elements.size()];
    for (int i = 0; i < typed.length; i++) {
      typed[i] = comparable(castTo(value, type, in), elements.get(i), in)[1];
    }
    return new InNode(castTo(value, type, in), typed, in.isNot());
  }

  DataType commonType(DataType a, DataType b, Expression at) {
    return Types.common(a, b).orElseThrow(() -> Errors.at(text, at,
        "Values of types " + a.typeName() + " and " + b.typeName() + " cannot be mixed here; cast one of them"));
  }

  private Node between(Between b) {
    Node value = bind(b.getLeftExpression());
    Node low = compare(value, CompareOp.GE, bind(b.getBetweenExpressionStart()), b);
    Node high = compare(value, CompareOp.LE, bind(b.getBetweenExpressionEnd()), b);
    Node both = LogicNodes.and(low, high);
    return b.isNot() ? new LogicNodes.Not(both) : both;
  }

  private Node like(LikeExpression like) {
    if (like.getLikeKeyWord() != LikeExpression.KeyWord.LIKE) {
      throw Errors.at(text, like, like.getLikeKeyWord() + " is not supported; use LIKE (with lower() for case-insensitive)");
    }
    Node value = toText(bind(like.getLeftExpression()), like);
    Node pattern = toText(bind(like.getRightExpression()), like);
    char escape = '\\';
    if (like.getEscape() != null) {
      Node e = bind(like.getEscape());
      if (!(e instanceof LiteralNode lit) || !(lit.value() instanceof String s) || s.length() != 1) {
        throw Errors.at(text, like, "ESCAPE needs a single-character string literal, e.g. ESCAPE '!'");
      }
      escape = s.charAt(0);
    }
    return new LikeNode(value, pattern, escape, like.isNot());
  }

  private Node caseWhen(CaseExpression c) {
    List<WhenClause> whens = c.getWhenClauses();
    Node subject = c.getSwitchExpression() == null ? null : bind(c.getSwitchExpression());
    Node[] conditions = new Node[whens.size()];
    Node[] values = new Node[whens.size()];
    for (int i = 0; i < whens.size(); i++) {
      WhenClause w = whens.get(i);
      conditions[i] = subject == null
          ? condition(w.getWhenExpression())
          : compare(subject, CompareOp.EQ, bind(w.getWhenExpression()), w);
      values[i] = bind(w.getThenExpression());
    }
    Node otherwise = c.getElseExpression() == null ? LiteralNode.untypedNull() : bind(c.getElseExpression());
    DataType type = null;
    for (Node n : concat(values, otherwise)) {
      if (!n.isNullLiteral()) {
        type = type == null ? n.type : commonType(type, n.type, c);
      }
    }
    type = type == null ? PrimitiveType.STRING : type;
    for (int i = 0; i < values.length; i++) {
      values[i] = castTo(values[i], type, c);
    }
    return new CaseNode(conditions, values, castTo(otherwise, type, c), type);
  }

  private static List<Node> concat(Node[] values, Node last) {
    List<Node> all = new ArrayList<>(List.of(values));
    all.add(last);
    return all;
  }
}
