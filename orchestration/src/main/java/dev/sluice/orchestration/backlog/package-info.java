/** What a pipeline has not read yet, computed from its checkpoint and its source; shared by the CLI and HTTP views. */
package dev.sluice.orchestration.backlog;
