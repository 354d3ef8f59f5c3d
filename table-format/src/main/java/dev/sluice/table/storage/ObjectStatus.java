package dev.sluice.table.storage;

/** One stored object: its key, exact size in bytes and last modification time (epoch ms). */
public record ObjectStatus(String key, long size, long modificationTime) {
  /** The part of the key after the last '/'. */
  public String name() {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? key : key.substring(slash + 1);
  }
}
