package dev.sluice.ingestion.expr.internal;

import java.util.Locale;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.SimpleNode;
import net.sf.jsqlparser.parser.Token;

/** The SQL text of one expression, its JSqlParser tree, and positions of nodes in the text. */
final class SqlText {
  private final String sql;
  private final Expression tree;

  private SqlText(String sql, Expression tree) {
    this.sql = sql;
    this.tree = tree;
  }

  static SqlText parse(String sql) {
    if (sql == null || sql.isBlank()) {
      throw new dev.sluice.ingestion.expr.ExpressionException(
          "The SQL expression is empty; write a condition such as `amount > 0`.", 0, 0);
    }
    CCJSqlParser parser = CCJSqlParserUtil.newParser(quoteWindowPrefix(sql));
    Expression tree;
    try {
      tree = parser.Expression();
    } catch (ParseException e) {
      Token bad = e.currentToken == null ? null : e.currentToken.next;
      throw bad == null ? Errors.parse(sql, 0, 0, null) : Errors.parse(sql, bad.beginLine, bad.beginColumn, bad.image);
    } catch (RuntimeException | Error e) {
      // JavaCC reports some lexical problems (an unclosed quote) as TokenMgrError
      throw Errors.parse(sql, 0, 0, null);
    }
    // The parser stops quietly before text it cannot use ("amount >" parses as "amount").
    Token next = parser.getNextToken();
    if (next.kind != CCJSqlParserConstants.EOF) {
      throw Errors.parse(sql, next.beginLine, next.beginColumn, next.image);
    }
    return new SqlText(sql, tree);
  }

  /**
   * {@code window} is a keyword to JSqlParser, so {@code window.start} (the struct column of a windowed
   * aggregate) would not parse; outside quotes, {@code window.} becomes {@code `window`.}.
   */
  private static String quoteWindowPrefix(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 4);
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
      } else if ((c == 'w' || c == 'W') && (i == 0 || !isWordChar(sql.charAt(i - 1)))
          && sql.regionMatches(true, i, "window", 0, 6)) {
        int j = i + 6;
        while (j < sql.length() && sql.charAt(j) == ' ') {
          j++;
        }
        if (j < sql.length() && sql.charAt(j) == '.') {
          out.append('`').append(sql, i, i + 6).append('`');
          i += 5;
          continue;
        }
      }
      out.append(c);
    }
    return out.toString();
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  String sql() {
    return sql;
  }

  Expression tree() {
    return tree;
  }

  /**
   * Where {@code node} starts; when the parser kept no position for it, where {@code name} first
   * appears as a word in the text.
   */
  Position position(Expression node, String name) {
    if (node != null) {
      SimpleNode ast = node.getASTNode();
      if (ast != null && ast.jjtGetFirstToken() != null) {
        Token first = ast.jjtGetFirstToken();
        if (name == null || first.image == null || first.image.replace("`", "").equalsIgnoreCase(name)) {
          return new Position(first.beginLine, first.beginColumn);
        }
      }
    }
    return name == null ? Position.UNKNOWN : find(name);
  }

  private Position find(String name) {
    String lowerSql = sql.toLowerCase(Locale.ROOT);
    String lowerName = name.toLowerCase(Locale.ROOT);
    int from = 0;
    while (true) {
      int i = lowerSql.indexOf(lowerName, from);
      if (i < 0) {
        return Position.UNKNOWN;
      }
      int end = i + lowerName.length();
      boolean startsWord = i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)) && sql.charAt(i - 1) != '_';
      boolean endsWord = end == sql.length() || !Character.isLetterOrDigit(sql.charAt(end)) && sql.charAt(end) != '_';
      if (startsWord && endsWord) {
        return offsetToPosition(i > 0 && sql.charAt(i - 1) == '`' ? i - 1 : i);
      }
      from = i + 1;
    }
  }

  private Position offsetToPosition(int offset) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < offset; i++) {
      if (sql.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new Position(line, column);
  }
}
