package dev.sluice.bench;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * Counts the database round trips made through a data source: every statement execution, commit and rollback
 * (pgjdbc sends each as one round trip; a transaction's BEGIN travels with its first statement).
 */
final class CountingDataSource {
  private static final Set<String> EXECUTES = Set.of("execute", "executeQuery", "executeUpdate", "executeBatch",
      "executeLargeUpdate", "executeLargeBatch");

  final LongAdder roundTrips = new LongAdder();

  DataSource wrap(DataSource target) {
    return proxy(DataSource.class, target, (p, m, a) -> {
      Object out = invoke(target, m, a);
      return out instanceof Connection c ? connection(c) : out;
    });
  }

  private Connection connection(Connection target) {
    return proxy(Connection.class, target, (p, m, a) -> {
      if (m.getName().equals("commit") || m.getName().equals("rollback")) {
        roundTrips.increment();
      }
      Object out = invoke(target, m, a);
      if (out instanceof java.sql.CallableStatement s) {
        return statement(java.sql.CallableStatement.class, s);
      }
      if (out instanceof java.sql.PreparedStatement s) {
        return statement(java.sql.PreparedStatement.class, s);
      }
      return out instanceof Statement s ? statement(Statement.class, s) : out;
    });
  }

  private <T extends Statement> T statement(Class<T> type, T target) {
    return proxy(type, target, (p, m, a) -> {
      if (EXECUTES.contains(m.getName())) {
        roundTrips.increment();
      }
      return invoke(target, m, a);
    });
  }

  private static Object invoke(Object target, java.lang.reflect.Method m, Object[] a) throws Throwable {
    try {
      return m.invoke(target, a);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, T target, InvocationHandler h) {
    return (T) Proxy.newProxyInstance(CountingDataSource.class.getClassLoader(), new Class<?>[] {type}, h);
  }
}
