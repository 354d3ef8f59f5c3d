/** Delta's column types and table schemas, shared by every Sluice module. */
package dev.sluice.table.types;
