/** The {@code sluice} command line (picocli): run, validate, status, tables, history, read and demo. */
package dev.sluice.orchestration.cli;
