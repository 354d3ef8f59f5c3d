/** MERGE by key: source indexing and key normalisation. */
package dev.sluice.table.internal.merge;
