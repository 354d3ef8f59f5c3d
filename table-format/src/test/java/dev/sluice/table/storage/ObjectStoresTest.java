package dev.sluice.table.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectStoresTest {
  @TempDir
  Path dir;

  @Test
  void opensALocalStoreForFileUris() {
    try (ObjectStore store = ObjectStores.open(dir.toUri())) {
      assertThat(store).isInstanceOf(LocalObjectStore.class);
      assertThat(store.root()).isEqualTo(new LocalObjectStore(dir).root());
      store.create("a/b", new byte[] {7});
      assertThat(dir.resolve("a/b")).hasBinaryContent(new byte[] {7});
    }
  }

  @Test
  void opensAnS3StoreWithEveryOption() {
    Map<String, String> options = Map.of(
        "endpoint", "http://127.0.0.1:9000",
        "region", "eu-west-1",
        "access-key-id", "AKIAEXAMPLE",
        "secret-access-key", "s3cr3t",
        "max-attempts", "7",
        "part-size", "6291456",
        "list-page-size", "50");

    try (ObjectStore store = ObjectStores.open(URI.create("s3://my-bucket/warehouse/bronze/"), options)) {
      assertThat(store).isInstanceOf(S3ObjectStore.class);
      assertThat(store.root()).isEqualTo(URI.create("s3://my-bucket/warehouse/bronze/"));
      assertThat(((S3ObjectStore) store).options()).isEqualTo(new S3Options("my-bucket", "warehouse/bronze",
          URI.create("http://127.0.0.1:9000"), "eu-west-1", true, "AKIAEXAMPLE", "s3cr3t", 7, 6291456, 50, S3Timeouts.DEFAULT));
    }
  }

  @Test
  void s3DefaultsAndExplicitVirtualHostAddressing() {
    S3Options defaults = ObjectStores.s3Options(URI.create("s3://b"), Map.of());
    assertThat(defaults).isEqualTo(S3Options.of("b", ""));
    assertThat(defaults.rootUri()).isEqualTo(URI.create("s3://b/"));
    assertThat(ObjectStores.s3Options(URI.create("s3://b/p"), Map.of("endpoint", "http://h:1", "path-style", "FALSE"))
        .pathStyle()).isFalse();
  }

  @Test
  void unknownSchemeIsNamed() {
    assertThatThrownBy(() -> ObjectStores.open(URI.create("gs://bucket/x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot open an object store for 'gs://bucket/x': scheme 'gs' is not supported;"
            + " the supported schemes are file and s3");
    assertThatThrownBy(() -> ObjectStores.open(URI.create("relative/path")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot open an object store for 'relative/path': the URI has no scheme;"
            + " use file:///absolute/path or s3://bucket/prefix");
  }

  @Test
  void unknownOptionKeyListsTheValidOnes() {
    assertThatThrownBy(() -> ObjectStores.open(URI.create("s3://b/p"), Map.of("acess-key-id", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown object store option 'acess-key-id' for s3://b/p; valid options are access-key-id,"
            + " attempt-timeout, connection-timeout, endpoint, list-page-size, max-attempts, part-size, path-style,"
            + " region, secret-access-key, socket-timeout");
    assertThatThrownBy(() -> ObjectStores.open(dir.toUri(), Map.of("region", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown object store option 'region' for " + dir.toUri() + "; this scheme takes no options");
  }

  @Test
  void badValuesAreNamed() {
    assertThatThrownBy(() -> ObjectStores.s3Options(URI.create("s3://b/p"), Map.of("max-attempts", "many")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Object store option 'max-attempts' for s3://b/p has an invalid value 'many': For input string: \"many\"");
    assertThatThrownBy(() -> ObjectStores.s3Options(URI.create("s3://b/p"), Map.of("path-style", "yes")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Object store option 'path-style' for s3://b/p has an invalid value 'yes': expected true or false");
    assertThatThrownBy(() -> ObjectStores.s3Options(URI.create("s3://b/p"), Map.of("part-size", "1024")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("S3 multipart part size must be at least 5242880 bytes (5 MiB, the S3 minimum), got 1024");
    assertThatThrownBy(() -> ObjectStores.s3Options(URI.create("s3://b/p"), Map.of("access-key-id", "a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("S3 credentials for bucket b are incomplete: give both the access key id and the secret access"
            + " key, or neither to use the default credentials provider chain");
    assertThatThrownBy(() -> ObjectStores.s3Options(URI.create("s3:///p"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot open an object store for 's3:///p': the URI names no bucket; use s3://bucket/prefix");
  }
}
