package dev.sluice.table.internal.actions;

import java.util.Objects;

/** {@code txn}: the latest {@code version} an application ({@code appId}) committed; the basis of idempotent writes. */
public record SetTransaction(String appId, long version, Long lastUpdated) implements Action {
  public SetTransaction {
    Objects.requireNonNull(appId, "txn.appId");
  }
}
