package dev.sluice.table.internal.parquet;

import java.util.stream.IntStream;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;

/**
 * Chosen rows of a row group as parquet's {@link RowRanges}, for {@code ParquetFileReader.readFilteredRowGroup}.
 * Parquet builds row ranges only from an offset index's pages, so the rows are handed to it as an index whose
 * "pages" are one row each; adjacent rows merge into one range.
 */
final class SelectedRows {
  private SelectedRows() {}

  /**
   * @param rows the chosen rows as positions in the file, ascending, all within the group
   * @param groupStart the file position of the group's first row
   * @param groupRows the group's row count
   */
  static RowRanges ranges(long[] rows, long groupStart, long groupRows) {
    OffsetIndex onePerRow = new OffsetIndex() {
      @Override
      public int getPageCount() {
        return rows.length;
      }

      @Override
      public long getOffset(int page) {
        throw new UnsupportedOperationException("row ranges only");
      }

      @Override
      public int getCompressedPageSize(int page) {
        throw new UnsupportedOperationException("row ranges only");
      }

      @Override
      public long getFirstRowIndex(int page) {
        return rows[page] - groupStart;
      }

      @Override
      public long getLastRowIndex(int page, long rowGroupRowCount) {
        return rows[page] - groupStart;
      }
    };
    return RowRanges.create(groupRows, IntStream.range(0, rows.length).iterator(), onePerRow);
  }
}
