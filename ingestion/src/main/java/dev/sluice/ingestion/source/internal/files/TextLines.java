package dev.sluice.ingestion.source.internal.files;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Splits a UTF-8 file into lines without their terminators ({@code \n} or {@code \r\n}; no empty last line; a
 * leading byte order mark dropped). A line that is not valid UTF-8 is never decoded with replacement characters:
 * it is kept as {@code base64:<its exact bytes>} with an error naming the first bad byte, for the corrupt-record
 * path.
 */
final class TextLines {
  static final String BASE64_PREFIX = "base64:";

  /** One line: its text, or (when {@code error} is set) {@link #BASE64_PREFIX} and the base64 of its bytes. */
  record Line(String text, String error) {}

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long LOW_BITS = 0x0101010101010101L;
  private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

  private TextLines() {}

  /**
   * The index of the first {@code \n} at or after {@code from} (or {@code content.length}), as {@code ~index} when a
   * byte before it is not ASCII. Reads eight bytes a step: a byte-by-byte scan was a tenth of reading bronze lines.
   */
  static int lineEnd(byte[] content, int from) {
    long notAscii = 0;
    int i = from;
    for (int last = content.length - Long.BYTES; i <= last; i += Long.BYTES) {
      long word = (long) LONGS.get(content, i);
      long x = word ^ NEWLINES;
      long newline = (x - LOW_BITS) & ~x & HIGH_BITS; // the lowest set bit marks the first '\n' byte
      if (newline != 0) {
        long before = (newline & -newline) - 1; // the bits of the bytes before it
        int end = i + (Long.numberOfTrailingZeros(newline) >>> 3);
        return (notAscii | (word & before & HIGH_BITS)) == 0 ? end : ~end;
      }
      notAscii |= word & HIGH_BITS;
    }
    for (; i < content.length && content[i] != '\n'; i++) {
      notAscii |= content[i] & 0x80;
    }
    return notAscii == 0 ? i : ~i;
  }

  static List<Line> of(byte[] content) {
    int start = start(content);
    String text;
    try {
      text = strict().decode(ByteBuffer.wrap(content, start, content.length - start)).toString();
    } catch (CharacterCodingException e) {
      return byLine(content, start);
    }
    // A plain scan: a regex split was the most expensive step of reading JSON lines.
    List<Line> lines = new ArrayList<>();
    int from = 0;
    int n = text.length();
    while (from < n) {
      int nl = text.indexOf('\n', from);
      int end = nl < 0 ? n : nl;
      int stop = end > from && text.charAt(end - 1) == '\r' ? end - 1 : end;
      lines.add(new Line(text.substring(from, stop), null));
      if (nl < 0) {
        break;
      }
      from = nl + 1;
    }
    return lines;
  }

  /** The slow path once the file is known to hold invalid UTF-8: '\n' never occurs inside a UTF-8 sequence. */
  private static List<Line> byLine(byte[] content, int start) {
    List<Line> lines = new ArrayList<>();
    CharsetDecoder decoder = strict();
    int from = start;
    while (from < content.length) {
      int nl = indexOf(content, (byte) '\n', from);
      int end = nl < 0 ? content.length : nl;
      int stop = end > from && content[end - 1] == '\r' ? end - 1 : end;
      lines.add(decode(decoder, content, from, stop));
      if (nl < 0) {
        break;
      }
      from = nl + 1;
    }
    return lines;
  }

  /** Where the first line starts: after a byte order mark, if any. */
  static int start(byte[] content) {
    return hasBom(content) ? 3 : 0;
  }

  /** The line of {@code content[from..to)} (no terminator) that holds only ASCII bytes. */
  static Line ascii(byte[] content, int from, int to) {
    return new Line(new String(content, from, to - from, StandardCharsets.ISO_8859_1), null);
  }

  /**
   * The line of {@code content[from..to)}, decoded strictly: the same as {@link #of} gives for it, since a line
   * is valid UTF-8 on its own exactly when it is inside the file ({@code '\n'} never occurs inside a sequence).
   */
  static Line decode(byte[] content, int from, int to) {
    return decode(strict(), content, from, to);
  }

  private static Line decode(CharsetDecoder decoder, byte[] content, int from, int to) {
    ByteBuffer in = ByteBuffer.wrap(content, from, to - from);
    CharBuffer out = CharBuffer.allocate(to - from);
    decoder.reset();
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      decoder.flush(out);
      return new Line(out.flip().toString(), null);
    }
    int bad = in.position() - from;
    String raw = BASE64_PREFIX + Base64.getEncoder().encodeToString(Arrays.copyOfRange(content, from, to));
    return new Line(raw, FileSourceErrors.invalidUtf8(bad, in.position()));
  }

  private static int indexOf(byte[] a, byte b, int from) {
    for (int i = from; i < a.length; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static boolean hasBom(byte[] c) {
    return c.length >= 3 && (c[0] & 0xFF) == 0xEF && (c[1] & 0xFF) == 0xBB && (c[2] & 0xFF) == 0xBF;
  }

  private static CharsetDecoder strict() {
    return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }
}
