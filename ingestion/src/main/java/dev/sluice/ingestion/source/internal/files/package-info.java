/**
 * The {@code files} source: discovery of new files in a folder or S3 prefix, a compacted log of the
 * files each batch took, and readers for JSON lines, CSV and Parquet.
 */
package dev.sluice.ingestion.source.internal.files;
