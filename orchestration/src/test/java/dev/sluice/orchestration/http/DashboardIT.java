package dev.sluice.orchestration.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard in headless Chromium (Debian's chromium + chromium-driver, driven by Selenium) after a real run
 * of the orders chain: every chart draws the run's batches, the graph works by keyboard, the page fits
 * 1280×800, and a screenshot goes to {@code target/dashboard.png}. Skipped, saying why, where Chromium is not
 * installed ({@code .ci/run} installs it).
 */
class DashboardIT {
  static final Path CHROMIUM = Path.of(System.getProperty("sluice.chromium", "/usr/bin/chromium"));
  static final Path CHROMEDRIVER = Path.of(System.getProperty("sluice.chromedriver", "/usr/bin/chromedriver"));
  /** Chart id → the colour its (first) series is drawn in (dashboard.js). */
  static final List<String[]> CHARTS = List.of(new String[] {"chart-duration", "#2563eb"},
      new String[] {"chart-rate", "#16a34a"}, new String[] {"chart-lag", "#d97706"},
      new String[] {"chart-state", "#9333ea"}, new String[] {"chart-ledger", "#15803d"});

  @TempDir static Path dir;
  static HttpFixture f;
  static ChromeDriver browser;

  static final boolean INSTALLED = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  static final String NOT_INSTALLED = "Skipping the dashboard test: headless Chromium is not installed (" + CHROMIUM
      + ", " + CHROMEDRIVER + "). Install Debian's packages: apt-get install -y chromium chromium-driver"
      + " (.ci/run does)";

  @BeforeAll
  static void start() {
    if (!INSTALLED) {
      System.err.println(NOT_INSTALLED);
      return;
    }
    f = HttpFixture.loopback(dir.resolve("service"));
    f.runChain();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    // without the background-networking flags Chromium keeps dialling Google's hosts, refused on a closed network
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--user-data-dir=" + dir.resolve("chromium-profile"), "--window-size=1280,800");
    ChromeDriverService driver = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    browser = new ChromeDriver(driver, options);
    browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
  }

  /** Each test is reported skipped, with the reason, where Chromium is missing. */
  @BeforeEach
  void requireChromium() {
    Assumptions.assumeTrue(INSTALLED, NOT_INSTALLED);
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (f != null) {
      f.close();
    }
  }

  @Test
  void everyChartDrawsTheBatchesOfTheRunAndAScreenshotIsSaved() throws IOException {
    browser.get(f.server.uri() + "#orders_silver");
    int batches = f.get("/api/pipelines/orders_silver").json().path("recentBatches").size();
    assertThat(batches).isPositive();
    for (String[] chart : CHARTS) {
      await(chart[0] + " charts " + batches + " batches", () -> points(chart[0]) == batches);
      await(chart[0] + " draws its series", () -> pixels(chart[0], chart[1]) > 20);
    }
    assertThat(browser.findElement(By.id("detail-title")).getText()).isEqualTo("Pipeline orders_silver");
    assertThat(browser.findElement(By.cssSelector(".node[data-pipeline='orders_silver']")).getAttribute("data-state"))
        .isEqualTo("succeeded");
    assertThat(browser.findElements(By.cssSelector("#edges line"))).as("bronze → silver → gold").hasSize(2);
    assertThat(browser.findElements(By.cssSelector("#runs tbody tr"))).hasSize(1);
    Path shot = Path.of("target", "dashboard.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));
    assertThat(Files.size(shot)).isPositive();
  }

  @Test
  void thePipelineGraphWorksByKeyboardAndThePageFits1280x800() {
    browser.get(f.server.uri().toString());
    await("the graph", () -> browser.findElements(By.cssSelector(".node")).size() == 3);
    WebElement body = browser.findElement(By.tagName("body"));
    for (int i = 0; i < 12 && !"node".equals(active().getAttribute("class")); i++) {
      body.sendKeys(Keys.TAB);
    }
    assertThat(active().getAttribute("data-pipeline")).as("Tab reaches the first pipeline").isEqualTo("orders_bronze");
    active().sendKeys(Keys.ARROW_DOWN);
    assertThat(active().getAttribute("data-pipeline")).isEqualTo("orders_silver");
    active().sendKeys(Keys.ARROW_DOWN);
    assertThat(active().getAttribute("data-pipeline")).isEqualTo("revenue_gold");
    active().sendKeys(Keys.ENTER);
    await("gold selected", () -> browser.findElement(By.id("detail-title")).getText().equals("Pipeline revenue_gold"));
    assertThat(browser.findElement(By.cssSelector(".node[data-pipeline='revenue_gold']")).getAttribute("aria-pressed"))
        .isEqualTo("true");
    long width = (Long) browser.executeScript("return document.documentElement.scrollWidth");
    long viewport = (Long) browser.executeScript("return window.innerWidth");
    assertThat(width).as("no horizontal scrolling at 1280 px").isLessThanOrEqualTo(viewport);
  }

  private static WebElement active() {
    return browser.switchTo().activeElement();
  }

  private static long points(String chart) {
    Object n = browser.executeScript("return document.getElementById(arguments[0]).dataset.points || '0'", chart);
    return Long.parseLong(n.toString());
  }

  /** Canvas pixels of about the series colour: the lines and points uPlot drew for the data. */
  private static long pixels(String chart, String hex) {
    Object n = ((JavascriptExecutor) browser).executeScript("""
        const c = document.querySelector('#' + arguments[0] + ' canvas');
        if (!c) return 0;
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const h = arguments[1], r = parseInt(h.substr(1, 2), 16), g = parseInt(h.substr(3, 2), 16),
            b = parseInt(h.substr(5, 2), 16);
        let n = 0;
        for (let i = 0; i < d.length; i += 4) {
          if (d[i + 3] > 200 && Math.abs(d[i] - r) < 30 && Math.abs(d[i + 1] - g) < 30 && Math.abs(d[i + 2] - b) < 30) n++;
        }
        return n;""", chart, hex);
    return ((Number) n).longValue();
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out waiting for " + what + "; page status: "
            + browser.findElement(By.id("status")).getText());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
