package dev.sluice.table.internal.log;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtocolSupportTest {
  private static final Metadata PLAIN = TestLog.metadata(Map.of());

  private static Metadata withSchema(String fieldsJson) {
    return new Metadata("id", null, null, null, null, "{\"type\":\"struct\",\"fields\":[" + fieldsJson + "]}",
        List.of(), Map.of(), null);
  }

  @Test
  void readsReaderOneAndReaderThreeWithoutFeatures() {
    assertThatCode(() -> ProtocolSupport.checkReadable(Protocol.of(1, 2), PLAIN)).doesNotThrowAnyException();
    assertThatCode(() -> ProtocolSupport.checkReadable(new Protocol(3, 7, List.of(), List.of("appendOnly")), PLAIN))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesUnsupportedReaderFeaturesByName() {
    assertThatThrownBy(() -> ProtocolSupport.checkReadable(
            new Protocol(3, 7, List.of("deletionVectors", "v2Checkpoint"), List.of()), PLAIN, "s3://b/t"))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("Cannot read s3://b/t: it requires reader features [v2Checkpoint]")
        .hasMessageContaining("Sluice reads tables at reader version 1 (and reader version 3 with reader features"
            + " deletionVectors and vacuumProtocolCheck)");
  }

  @Test
  void refusesTimestampNtzAndVariantColumnsEvenWithoutTheFeature() {
    Metadata nested = withSchema("{\"name\":\"a\",\"type\":{\"type\":\"array\",\"elementType\":\"timestamp_ntz\","
        + "\"containsNull\":true},\"nullable\":true,\"metadata\":{}}");

    assertThatThrownBy(() -> ProtocolSupport.checkReadable(Protocol.of(1, 2), nested, "t"))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("columns of type [timestamp_ntz]");
    assertThatThrownBy(() -> ProtocolSupport.checkReadable(Protocol.of(1, 2),
            withSchema("{\"name\":\"v\",\"type\":\"variant\",\"nullable\":true,\"metadata\":{}}"), "t"))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("columns of type [variant]");
  }

  @Test
  void writesWriterTwoAndSevenWithKnownFeatures() {
    assertThatCode(() -> ProtocolSupport.checkWritable(Protocol.of(1, 2), PLAIN)).doesNotThrowAnyException();
    assertThatCode(() -> ProtocolSupport.checkWritable(
        new Protocol(1, 7, null, List.of("changeDataFeed", "appendOnly", "invariants")), PLAIN))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesWriterThreeToSixNamingWhatTheyNeed() {
    assertThatThrownBy(() -> ProtocolSupport.checkWritable(Protocol.of(1, 4), PLAIN, "t"))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("Cannot write to t: it requires writer version 4, which obliges writers to enforce"
            + " CHECK constraints, generated columns");
    assertThatThrownBy(() -> ProtocolSupport.checkWritable(Protocol.of(1, 6), PLAIN, "t"))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("column mapping, identity columns");
  }

  @Test
  void refusesUnknownWriterFeaturesAndInvariantColumns() {
    assertThatThrownBy(() -> ProtocolSupport.checkWritable(
            new Protocol(1, 7, null, List.of("appendOnly", "domainMetadata", "rowTracking")), PLAIN, "t"))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("writer features [domainMetadata, rowTracking]");
    Metadata invariant = withSchema("{\"name\":\"s\",\"type\":{\"type\":\"struct\",\"fields\":[{\"name\":\"x\","
        + "\"type\":\"long\",\"nullable\":true,\"metadata\":{\"delta.invariants\":\"{\\\"expression\\\":"
        + "{\\\"expression\\\":\\\"x > 3\\\"}}\"}}]},\"nullable\":true,\"metadata\":{}}");
    assertThatThrownBy(() -> ProtocolSupport.checkWritable(Protocol.of(1, 2), invariant, "t"))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("column invariants (delta.invariants) on [s.x]");
  }
}
