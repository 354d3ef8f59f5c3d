/** Rows and iterators handed between the table format and its callers. */
package dev.sluice.table.data;
