/** The exceptions callers of the table format can react to; one class per distinct reaction. */
package dev.sluice.table.exceptions;
