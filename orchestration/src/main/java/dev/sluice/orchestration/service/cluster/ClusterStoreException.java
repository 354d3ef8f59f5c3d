package dev.sluice.orchestration.service.cluster;

/** The cluster job store cannot be used: the database is unreachable, refuses the login, or cannot be migrated. */
public final class ClusterStoreException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  ClusterStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  static ClusterStoreException unusable(String url, Throwable cause) {
    return new ClusterStoreException("Cannot use the cluster job store at " + url + ": " + rootMessage(cause)
        + ". Check service.job_store in the config (url, user, password) and that PostgreSQL is running and reachable"
        + " from this host.", cause);
  }

  static ClusterStoreException query(String what, Throwable cause) {
    return new ClusterStoreException("Could not " + what + " in the cluster job store: " + rootMessage(cause), cause);
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String top = t.getMessage() == null ? t.toString() : t.getMessage();
    return root == t || root.getMessage() == null || top.contains(root.getMessage()) ? top
        : top + " (" + root.getMessage() + ")";
  }
}
