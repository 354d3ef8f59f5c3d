/**
 * The object store SPI the Delta log is built on, with local-disk and S3 implementations. Tables
 * never touch {@code java.nio.file} or the AWS SDK directly.
 */
package dev.sluice.table.storage;
