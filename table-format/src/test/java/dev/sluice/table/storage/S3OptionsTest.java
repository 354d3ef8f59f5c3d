package dev.sluice.table.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class S3OptionsTest {
  @Test
  void toStringNeverPrintsTheSecret() {
    S3Options options = S3Options.of("b", "/p/q/").withEndpoint(URI.create("http://h:9000")).withPathStyle(true)
        .withCredentials("AKIAEXAMPLE", "very-secret-value");

    assertThat(options.toString())
        .isEqualTo("S3Options[root=s3://b/p/q/, endpoint=http://h:9000, region=default chain, pathStyle=true,"
            + " credentials=accessKeyId AKIAEXAMPLE, secret ****, maxAttempts=5, partSize=8388608, listPageSize=1000,"
            + " timeouts=connection 5 s, socket 15 s, attempt 60 s]")
        .doesNotContain("very-secret-value");
    try (S3ObjectStore store = new S3ObjectStore(options)) {
      assertThat(store.toString()).startsWith("S3ObjectStore(S3Options[").doesNotContain("very-secret-value");
    }
  }

  @Test
  void normalisesThePrefixAndBuildsTheRoot() {
    assertThat(S3Options.of("b", "//a/b//").keyPrefix()).isEqualTo("a/b");
    assertThat(S3Options.of("b", "a b/c").rootUri()).isEqualTo(URI.create("s3://b/a%20b/c/"));
    assertThat(S3Options.of("b", null).rootUri()).isEqualTo(URI.create("s3://b/"));
  }

  @Test
  void rejectsInvalidValues() {
    assertThatThrownBy(() -> S3Options.of("b/c", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("S3 bucket name 'b/c' is invalid: give just the bucket name, without '/'");
    assertThatThrownBy(() -> S3Options.of("b", "").withMaxAttempts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("S3 max attempts must be at least 1, got 0");
    assertThatThrownBy(() -> S3Options.of("b", "").withListPageSize(1001))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("S3 list page size must be between 1 and 1000, got 1001");
    assertThatThrownBy(() -> S3Options.of("b", "a/../c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a/../c' is invalid");
  }

  @Test
  void justBelowSortsBeforeAndLeavesNoKeyInBetween() {
    assertThat(S3Listing.justBelow("log/5")).isEqualTo("log/4");
    assertThat(StoragePaths.compareKeys(S3Listing.justBelow("log/5"), "log/5")).isNegative();
    assertThat(S3Listing.justBelow("a\u0000")).isEqualTo("a");
    assertThat(S3Listing.justBelow("a\uD83D\uDE00")).isEqualTo("a");
    assertThat(S3Listing.justBelow("a\uE000")).isEqualTo("a");
  }

  @Test
  void keysCompareByCodePointLikeS3() {
    // U+FF5E sorts before U+1F600 in UTF-8 bytes, but after its surrogate pair in UTF-16
    assertThat(StoragePaths.compareKeys("\uFF5E", "\uD83D\uDE00")).isNegative();
    assertThat(StoragePaths.compareKeys("ab", "abc")).isNegative();
    assertThat(StoragePaths.compareKeys("abc", "ab")).isPositive();
    assertThat(StoragePaths.compareKeys("abc", "abc")).isZero();
  }
}
