package dev.sluice.ingestion.internal.spill;

import java.util.ArrayList;
import java.util.List;

/**
 * The life of one micro-batch on its query's thread: the columnar rows built on that thread while it is open end
 * when it closes (their arrays go back to the {@link ChunkPool} for the next batch). Rows built with no scope open,
 * or on another thread, are left to the garbage collector. Public for the micro-batch loop; not an API.
 */
public final class BatchScope implements AutoCloseable {
  private static final ThreadLocal<BatchScope> CURRENT = new ThreadLocal<>();

  private final BatchScope outer;
  private final List<ColumnarRows> rows = new ArrayList<>();

  private BatchScope(BatchScope outer) {
    this.outer = outer;
  }

  /** Opens a scope on this thread (inside the one open, if any); close it on the same thread. */
  public static BatchScope open() {
    BatchScope scope = new BatchScope(CURRENT.get());
    CURRENT.set(scope);
    return scope;
  }

  static void register(ColumnarRows built) {
    BatchScope scope = CURRENT.get();
    if (scope != null) {
      scope.rows.add(built);
    }
  }

  /** Ends the rows built in this scope. */
  @Override
  public void close() {
    if (outer == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(outer);
    }
    rows.forEach(ColumnarRows::release);
    rows.clear();
  }
}
