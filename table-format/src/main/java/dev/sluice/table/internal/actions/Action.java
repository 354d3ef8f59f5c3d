package dev.sluice.table.internal.actions;

/** One line of a Delta commit file: exactly the actions of the protocol that Sluice reads or writes. */
public sealed interface Action
    permits Protocol, Metadata, AddFile, RemoveFile, SetTransaction, CommitInfo, AddCdcFile {}
