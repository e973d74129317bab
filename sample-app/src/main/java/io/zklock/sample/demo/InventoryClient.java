package io.zklock.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.zklock.sample.audit.AuditStatus;
import io.zklock.sample.inventory.ReservationResponse;
import io.zklock.sample.inventory.StockLevel;
import io.zklock.sample.inventory.StoreStats;
import tools.jackson.databind.json.JsonMapper;

/**
 * HTTP client of one sample application instance, on {@link HttpClient}.
 *
 * <p>
 * Thread-safe.
 */
public final class InventoryClient {

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http;

	private final URI baseUri;

	private final String instance;

	/**
	 * Creates a client.
	 * @param http the shared HTTP client
	 * @param baseUri the instance's base URI, such as {@code http://127.0.0.1:8080}
	 * @param instance the instance name reported in outcomes
	 */
	public InventoryClient(HttpClient http, URI baseUri, String instance) {
		this.http = http;
		this.baseUri = baseUri;
		this.instance = instance;
	}

	/**
	 * The name of the instance this client talks to.
	 * @return the instance name
	 */
	public String instance() {
		return this.instance;
	}

	/**
	 * Sets the stock of a SKU ({@code PUT /inventory/{sku}?stock=N}).
	 * @param sku the SKU
	 * @param stock the stock
	 * @return the stock written
	 * @throws IllegalStateException on an error answer
	 * @throws UncheckedIOException if the instance cannot be reached
	 */
	public StockLevel setStock(String sku, int stock) {
		HttpResponse<String> response = send(request("/inventory/" + sku + "?stock=" + stock)
			.PUT(HttpRequest.BodyPublishers.noBody()));
		return JSON.readValue(expectOk(response), StockLevel.class);
	}

	/**
	 * Reads the stock of a SKU ({@code GET /inventory/{sku}}).
	 * @param sku the SKU
	 * @return the stock, or empty if the SKU is unknown
	 * @throws IllegalStateException on an error answer
	 * @throws UncheckedIOException if the instance cannot be reached
	 */
	public Optional<StockLevel> stock(String sku) {
		HttpResponse<String> response = send(request("/inventory/" + sku).GET());
		if (response.statusCode() == 404) {
			return Optional.empty();
		}
		return Optional.of(JSON.readValue(expectOk(response), StockLevel.class));
	}

	/**
	 * Reads the instance's store counts ({@code GET /store/stats}).
	 * @return the counts
	 * @throws IllegalStateException on an error answer
	 * @throws UncheckedIOException if the instance cannot be reached
	 */
	public StoreStats stats() {
		return JSON.readValue(expectOk(send(request("/store/stats").GET())), StoreStats.class);
	}

	/**
	 * Reads the instance's part in the leader-only inventory audit ({@code GET /audit}).
	 * @return the status
	 * @throws IllegalStateException on an error answer
	 * @throws UncheckedIOException if the instance cannot be reached
	 */
	public AuditStatus audit() {
		return JSON.readValue(expectOk(send(request("/audit").GET())), AuditStatus.class);
	}

	/**
	 * Makes the instance yield its term of a role
	 * ({@code POST /actuator/leadership/{role}}); returns once its leader-scoped work stopped and
	 * its lock node is deleted.
	 * @param role the role
	 * @return whether a term was given up
	 * @throws IllegalStateException on an error answer
	 * @throws UncheckedIOException if the instance cannot be reached
	 */
	public boolean yieldRole(String role) {
		String body = expectOk(send(request("/actuator/leadership/" + role).POST(HttpRequest.BodyPublishers.noBody())));
		return JSON.readTree(body).path("yielded").asBoolean();
	}

	/**
	 * Whether the instance answers {@code GET /store/stats}.
	 * @return {@code true} if it is up
	 */
	public boolean isUp() {
		try {
			return send(request("/store/stats").timeout(Duration.ofSeconds(2)).GET()).statusCode() == 200;
		}
		catch (UncheckedIOException ex) {
			return false;
		}
	}

	/**
	 * Reserves units of a SKU ({@code POST /inventory/{sku}/reserve?qty=N}) without blocking.
	 * @param sku the SKU
	 * @param quantity the units
	 * @return the outcome; the future never completes exceptionally
	 */
	public CompletableFuture<ReservationOutcome> reserve(String sku, int quantity) {
		HttpRequest request = request("/inventory/" + sku + "/reserve?qty=" + quantity)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		return this.http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).handle((response, failure) -> {
			if (failure != null) {
				return ReservationOutcome.failed(this.instance, sku, quantity, 0, String.valueOf(failure));
			}
			if (response.statusCode() != 200) {
				return ReservationOutcome.failed(this.instance, sku, quantity, response.statusCode(), response.body());
			}
			try {
				return ReservationOutcome.answered(this.instance,
						JSON.readValue(response.body(), ReservationResponse.class));
			}
			catch (RuntimeException ex) {
				return ReservationOutcome.failed(this.instance, sku, quantity, 200, "Unreadable body: " + ex);
			}
		});
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(this.baseUri.resolve(path)).timeout(REQUEST_TIMEOUT);
	}

	private HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot reach " + this.instance + " at " + this.baseUri, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while calling " + this.instance, ex);
		}
	}

	private String expectOk(HttpResponse<String> response) {
		if (response.statusCode() != 200) {
			throw new IllegalStateException(response.request().method() + " " + response.uri() + " on " + this.instance
					+ " answered " + response.statusCode() + ": " + response.body());
		}
		return response.body();
	}

}
