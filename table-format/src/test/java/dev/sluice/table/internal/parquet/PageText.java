package dev.sluice.table.internal.parquet;

import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;

/** Pages of a values writer as text, so that two writers' pages compare in one assertion (the dictionary tests). */
final class PageText {
  private PageText() {}

  /** The page written since the last reset as "encoding:bytes"; resets the writer for the next page. */
  static String page(ValuesWriter writer) throws java.io.IOException {
    String page = writer.getEncoding() + ":" + hex(writer.getBytes().toByteArray());
    writer.reset();
    return page;
  }

  /** The dictionary page as "encoding/size:bytes", or "no dictionary". */
  static String dictionary(ValuesWriter writer) throws Exception {
    DictionaryPage dictionary = writer.toDictPageAndClose();
    return dictionary == null ? "no dictionary"
        : dictionary.getEncoding() + "/" + dictionary.getDictionarySize() + ":"
            + hex(dictionary.getBytes().toByteArray());
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder();
    for (byte b : bytes) {
      s.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return s.toString();
  }
}
