package dev.sluice.orchestration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What each layer of the orders scenario must hold, computed from the landing files with plain Java
 * collections, independently of the engine.
 */
final class OrdersOracle {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  record Order(String orderId, String customerId, Instant eventTime, double amount, String status, Instant updatedAt) {}

  final List<Order> validLines = new ArrayList<>();
  final List<String> brokenLines = new ArrayList<>();
  final Map<String, String> tierOf = new HashMap<>();

  OrdersOracle(Path input, Path customers) {
    try (Stream<Path> files = Files.list(input)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList()) {
        for (String line : Files.readAllLines(f)) {
          if (line.isEmpty()) {
            continue;
          }
          try {
            JsonNode n = MAPPER.readTree(line);
            validLines.add(new Order(n.get("order_id").asText(), n.get("customer_id").asText(),
                Instant.parse(n.get("event_time").asText()), n.get("amount").asDouble(), n.get("status").asText(),
                Instant.parse(n.get("updated_at").asText())));
          } catch (IOException | RuntimeException broken) {
            brokenLines.add(line);
          }
        }
      }
      for (String line : Files.readAllLines(customers.resolve("customers.jsonl"))) {
        JsonNode n = MAPPER.readTree(line);
        tierOf.put(n.get("customer_id").asText(), n.get("tier").asText());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Silver: the latest version (greatest updated_at) of each order. */
  Map<String, Order> silver() {
    Map<String, Order> out = new TreeMap<>();
    for (Order o : validLines) {
      Order current = out.get(o.orderId());
      if (current == null || o.updatedAt().isAfter(current.updatedAt())) {
        out.put(o.orderId(), o);
      }
    }
    return out;
  }

  /** Gold: revenue (to the cent) and order count per (1-minute window start, tier) over silver. */
  Map<String, String> gold() {
    Map<String, double[]> acc = new TreeMap<>();
    for (Order o : silver().values()) {
      long start = Math.floorDiv(o.eventTime().toEpochMilli(), 60_000L) * 60_000L;
      String key = Instant.ofEpochMilli(start) + "|" + tierOf.getOrDefault(o.customerId(), null);
      double[] a = acc.computeIfAbsent(key, k -> new double[2]);
      a[0] += o.amount();
      a[1] += 1;
    }
    Map<String, String> out = new TreeMap<>();
    acc.forEach((k, a) -> out.put(k, cents(a[0]) + "/" + (long) a[1]));
    return out;
  }

  static String cents(double value) {
    return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).toPlainString();
  }
}
