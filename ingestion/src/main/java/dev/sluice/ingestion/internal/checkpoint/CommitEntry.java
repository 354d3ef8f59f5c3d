package dev.sluice.ingestion.internal.checkpoint;

/** The record that batch N is done ({@code commits/N}), with the watermark the next batch starts from. */
public record CommitEntry(long nextBatchWatermarkMs) {}
