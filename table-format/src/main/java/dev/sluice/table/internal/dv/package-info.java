/**
 * Deletion vectors (Delta table feature {@code deletionVectors}): their descriptors in the log, the Z85
 * text encoding, and the RoaringBitmapArray they hold, the row indexes of a data file that are deleted.
 */
package dev.sluice.table.internal.dv;
