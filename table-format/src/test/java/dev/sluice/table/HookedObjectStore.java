package dev.sluice.table;

import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.storage.ForwardingObjectStore;
import java.util.function.Consumer;

/** Delegates to a store and runs a hook once before the first create of a commit file: a deterministic race. */
final class HookedObjectStore extends ForwardingObjectStore {
  private Consumer<String> beforeCommit;

  HookedObjectStore(ObjectStore delegate) {
    super(delegate);
  }

  /** Runs {@code hook} (once) just before the next commit file is created through this store. */
  void beforeNextCommit(Consumer<String> hook) {
    this.beforeCommit = hook;
  }

  @Override
  public void create(String key, byte[] data) {
    Consumer<String> hook = beforeCommit;
    if (hook != null && key.contains("_delta_log/") && key.endsWith(".json")) {
      beforeCommit = null;
      hook.accept(key);
    }
    delegate.create(key, data);
  }
}
