/** Scan planning and row iteration. */
package dev.sluice.table.internal.scan;
