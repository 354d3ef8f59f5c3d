package dev.sluice.table.internal.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class FilePathsTest {
  private static final URI LOCAL = URI.create("file:///data/t/");
  private static final URI S3 = URI.create("s3://bucket/wh/t/");

  @Test
  void relativeAndAbsoluteFormsOfOneFileAgree() {
    String relative = FilePaths.canonicalize(LOCAL, "p=a%20b/part-0.parquet");

    assertThat(relative).isEqualTo("file:/data/t/p=a%20b/part-0.parquet");
    assertThat(FilePaths.canonicalize(LOCAL, "/data/t/p=a%20b/part-0.parquet")).isEqualTo(relative);
    assertThat(FilePaths.canonicalize(LOCAL, "file:/data/t/p=a%20b/part-0.parquet")).isEqualTo(relative);
    assertThat(FilePaths.canonicalize(LOCAL, "file:///data/t/p=a%20b/part-0.parquet")).isEqualTo(relative);
  }

  @Test
  void encodingIsNormalisedButDoubleEncodingIsKept() {
    assertThat(FilePaths.canonicalize(LOCAL, "with%20space/p@%23h"))
        .isEqualTo(FilePaths.canonicalize(LOCAL, "file:/data/t/with%20space/p@%23h"));
    assertThat(FilePaths.canonicalize(LOCAL, "ts=2021-09-08%2011%253A11/f.parquet"))
        .isEqualTo("file:/data/t/ts=2021-09-08%2011%253A11/f.parquet");
    // a writer that did not encode the space still names the same file
    assertThat(FilePaths.canonicalize(LOCAL, "with space/f.parquet"))
        .isEqualTo(FilePaths.canonicalize(LOCAL, "with%20space/f.parquet"));
  }

  @Test
  void objectStorePathsKeepTheirBucket() {
    assertThat(FilePaths.canonicalize(S3, "d=1/f.parquet")).isEqualTo("s3://bucket/wh/t/d=1/f.parquet");
    assertThat(FilePaths.canonicalize(S3, "/wh/t/d=1/f.parquet")).isEqualTo("s3://bucket/wh/t/d=1/f.parquet");
    assertThat(FilePaths.canonicalize(S3, "s3://other/f.parquet")).isEqualTo("s3://other/f.parquet");
  }
}
