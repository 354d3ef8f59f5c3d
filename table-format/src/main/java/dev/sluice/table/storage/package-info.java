/**
 * The object store SPI the Delta log is built on, with local-disk and S3 implementations. Tables
 * never touch {@code java.nio.file} or the AWS SDK directly. {@link dev.sluice.table.storage.ObjectStores}
 * opens the right store for a {@code file:} or {@code s3:} root URI.
 */
package dev.sluice.table.storage;
