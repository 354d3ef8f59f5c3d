/**
 * {@code sluice diagnose}: what a pipeline would meet if it started now, found by reading only — whether the
 * config fits the checkpoint, who holds the runner lease, a batch left pending, the source and its backlog, the
 * tables' protocol, files and log, and the state the checkpoint keeps.
 */
package dev.sluice.orchestration.diagnose;
