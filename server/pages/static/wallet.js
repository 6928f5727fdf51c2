/* generated from server/pages/wallet-page/ and clients/wallet/src by `npm run build:pages` — do not edit */
(function() {

// clients/wallet/src/links/payment-id.ts
/**
	* Payment identifiers are `pay_` followed by an opaque run of URL-safe characters.
	* The SDK never interprets the opaque part; it only refuses anything that could smuggle
	* path separators, query syntax or whitespace into a gateway URL.
	*/
	const PAYMENT_ID_PATTERN = /^pay_[A-Za-z0-9_-]{1,200}$/;
	/** True when `value` has the shape of a payment identifier (used before any network call). */
	function isPaymentId(value) {
		return PAYMENT_ID_PATTERN.test(value);
	}

// clients/wallet/src/gateway/errors.ts
/**
	* An error answer from the gateway, carrying the documented body
	* `{ message, code, details?, issues? }` plus the HTTP status.
	*/
	var GatewayError = class extends Error {
		status;
		code;
		details;
		issues;
		constructor(init) {
			super(init.message);
			this.name = "GatewayError";
			this.status = init.status;
			this.code = init.code;
			if (init.details !== void 0) this.details = init.details;
			if (init.issues !== void 0) this.issues = init.issues;
		}
	};
	/**
	* The payment (410) or its quote (409 `quote_expired`) has expired. Wallets should tell the
	* buyer and offer to start again: with fresh options for an expired quote, or with a new link
	* for an expired payment.
	*/
	var PaymentExpiredError = class extends GatewayError {
		/** `quote`: re-fetching options can continue; `payment`: the link itself is dead. */
		expired;
		constructor(init) {
			super(init);
			this.name = "PaymentExpiredError";
			this.expired = init.status === 410 ? "payment" : "quote";
		}
	};
	/** The service could not be reached (or kept failing at the network level) after all retries. */
	var GatewayNetworkError = class extends Error {
		attempts;
		constructor(message, attempts, cause) {
			super(message, { cause });
			this.name = "GatewayNetworkError";
			this.attempts = attempts;
		}
	};
	/** A success answer that does not have the documented shape; never retried. */
	var GatewayProtocolError = class extends Error {
		constructor(message) {
			super(message);
			this.name = "GatewayProtocolError";
		}
	};
	/** Builds the right error class for a failed answer so callers can branch with `instanceof`. */
	function errorFromResponse(status, body, statusText) {
		const record = typeof body === "object" && body !== null ? body : {};
		const init = {
			status,
			code: typeof record.code === "string" ? record.code : `http_${status}`,
			message: typeof record.message === "string" ? record.message : statusText || `HTTP ${status}`,
			...isPlainObject(record.details) ? { details: record.details } : {},
			...Array.isArray(record.issues) ? { issues: record.issues.filter(isIssue) } : {}
		};
		if (status === 410 || status === 409 && init.code === "quote_expired") return new PaymentExpiredError(init);
		return new GatewayError(init);
	}
	function isPlainObject(value) {
		return typeof value === "object" && value !== null && !Array.isArray(value);
	}
	function isIssue(value) {
		return isPlainObject(value) && typeof value.field === "string" && typeof value.message === "string";
	}

// clients/wallet/src/gateway/actions.ts
/**
	* Converts a gateway action into the wallet-code shape. Unknown action types are refused
	* rather than dropped, because a dropped action would misalign the confirm results.
	*/
	function fromWireAction(wire) {
		if (!isRecord(wire) || !isRecord(wire.data)) throw new GatewayProtocolError("action is not an object with data");
		const data = wire.data;
		if (wire.type === "walletRpc") {
			if (typeof data.chain_id !== "string" || typeof data.method !== "string" || !Array.isArray(data.params)) throw new GatewayProtocolError("walletRpc action needs chain_id, method and a params array");
			return {
				type: "walletRpc",
				walletRpc: {
					chainId: data.chain_id,
					method: data.method,
					params: JSON.stringify(data.params)
				}
			};
		}
		if (wire.type === "build") {
			if (typeof data.data !== "string") throw new GatewayProtocolError("build action needs a data string");
			return {
				type: "build",
				build: { data: data.data }
			};
		}
		throw new GatewayProtocolError(`unknown action type ${JSON.stringify(wire.type)}`);
	}
	/** Narrowing helper shared by the response readers. */
	function isRecord(value) {
		return typeof value === "object" && value !== null && !Array.isArray(value);
	}

// clients/wallet/src/gateway/read-responses.ts
	function readOptions(body) {
		const record = requireRecord(body, "options response");
		const list = record.options ?? [];
		if (!Array.isArray(list)) throw new GatewayProtocolError("options must be an array");
		return {
			options: list.map(readOption),
			info: record.info == null ? null : readSummary(record.info),
			collectData: readCollectData(record.collectData)
		};
	}
	function readOption(value) {
		const record = requireRecord(value, "option");
		if (typeof record.id !== "string" || typeof record.account !== "string" || !Array.isArray(record.actions)) throw new GatewayProtocolError("option needs id, account and actions");
		return {
			...record,
			actions: record.actions.map(fromWireAction),
			collectData: readCollectData(record.collectData)
		};
	}
	function readCollectData(value) {
		if (value == null) return null;
		const record = requireRecord(value, "collectData");
		if (typeof record.url !== "string") throw new GatewayProtocolError("collectData needs a url");
		const fields = record.fields ?? [];
		if (!Array.isArray(fields) || !fields.every((f) => isRecord(f) && typeof f.id === "string" && typeof f.name === "string" && typeof f.required === "boolean" && typeof f.type === "string")) throw new GatewayProtocolError("collectData.fields must be a list of {id, name, required, type}");
		return {
			...record,
			url: record.url,
			schema: record.schema,
			fields
		};
	}
	function readSummary(body) {
		const record = requireRecord(body, "payment");
		if (typeof record.status !== "string" || !isRecord(record.amount)) throw new GatewayProtocolError("payment needs status and amount");
		return record;
	}
	/** Fetch answers must contain only wallet RPC actions: a build cannot resolve to a build. */
	function readFetchedActions(body) {
		const record = requireRecord(body, "fetch response");
		if (!Array.isArray(record.actions)) throw new GatewayProtocolError("fetch response needs actions");
		return record.actions.map((wire) => {
			const action = fromWireAction(wire);
			if (action.type !== "walletRpc") throw new GatewayProtocolError("fetch returned a non-walletRpc action");
			return action;
		});
	}
	function readStatus(body) {
		const record = requireRecord(body, "status");
		if (typeof record.status !== "string" || typeof record.isFinal !== "boolean") throw new GatewayProtocolError("status needs status and isFinal");
		return record;
	}
	function readCancel(body) {
		const record = requireRecord(body, "cancel response");
		if (typeof record.status !== "string") throw new GatewayProtocolError("cancel response needs status");
		return record;
	}
	function requireRecord(value, what) {
		if (!isRecord(value)) throw new GatewayProtocolError(`${what} is not a JSON object`);
		return value;
	}

// clients/wallet/src/gateway/retry.ts
/** Fills in the interface's recommended values: 3 retries, 100 ms doubling, up to 100 ms jitter. */
	function retryPolicy(options = {}) {
		return {
			retries: options.retries ?? 3,
			initialDelayMs: options.initialDelayMs ?? 100,
			maxJitterMs: options.maxJitterMs ?? 100,
			random: options.random ?? Math.random,
			sleep: options.sleep ?? abortableSleep
		};
	}
	/** Delay before retry number `retryIndex` (0-based): base doubling plus jitter. */
	function backoffDelay(retryIndex, policy) {
		return policy.initialDelayMs * 2 ** retryIndex + Math.floor(policy.random() * policy.maxJitterMs);
	}
	/** Timer-based sleep that ends early (rejecting) when the signal aborts. */
	function abortableSleep(ms, signal) {
		return new Promise((resolve, reject) => {
			if (signal?.aborted) {
				reject(signal.reason);
				return;
			}
			const onAbort = () => {
				clearTimeout(timer);
				reject(signal?.reason);
			};
			const timer = setTimeout(() => {
				signal?.removeEventListener("abort", onAbort);
				resolve();
			}, ms);
			signal?.addEventListener("abort", onAbort, { once: true });
		});
	}

// clients/wallet/src/gateway/transport.ts
/**
	* Sends one gateway call with the interface's retry rule: 5xx answers and network failures
	* are retried (3 times, 100 ms doubling plus jitter), 4xx never. Every gateway call is safe to
	* repeat (confirm is idempotent on the service), so the rule applies uniformly.
	*/
	async function sendRequest(config, spec) {
		const url = buildUrl(config.baseUrl, spec.path, spec.query);
		const init = {
			method: spec.method,
			headers: buildHeaders(config, spec.body !== void 0)
		};
		if (spec.body !== void 0) init.body = JSON.stringify(spec.body);
		if (spec.signal !== void 0) init.signal = spec.signal;
		const { retry } = config;
		for (let attempt = 0;; attempt += 1) {
			let response;
			try {
				response = await config.fetch(url, init);
			} catch (error) {
				if (spec.signal?.aborted) throw error;
				if (attempt >= retry.retries) throw new GatewayNetworkError(`gateway unreachable after ${attempt + 1} attempts: ${describe(error)}`, attempt + 1, error);
				await retry.sleep(backoffDelay(attempt, retry), spec.signal);
				continue;
			}
			if (response.status >= 500 && attempt < retry.retries) {
				await response.body?.cancel();
				await retry.sleep(backoffDelay(attempt, retry), spec.signal);
				continue;
			}
			return readResponse(response);
		}
	}
	async function readResponse(response) {
		const text = await response.text();
		let body = void 0;
		if (text !== "") try {
			body = JSON.parse(text);
		} catch {
			if (response.ok) throw new GatewayProtocolError(`gateway answered ${response.status} with a non-JSON body`);
		}
		if (!response.ok) throw errorFromResponse(response.status, body, response.statusText);
		return body;
	}
	function buildHeaders(config, hasBody) {
		const headers = { Accept: "application/json" };
		if (hasBody) headers["Content-Type"] = "application/json";
		if ("apiKey" in config.auth) headers["Api-Key"] = config.auth.apiKey;
		else if ("appId" in config.auth) {
			headers["App-Id"] = config.auth.appId;
			headers["Client-Id"] = config.auth.clientId;
		}
		if (config.version !== void 0) headers["Svc-Version"] = config.version;
		return headers;
	}
	/** Joins relative to the base so a base with a path prefix (`https://host/api`) keeps it. */
	function buildUrl(baseUrl, path, query) {
		const base = baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
		const url = new URL(path.replace(/^\//, ""), base);
		for (const [key, value] of Object.entries(query ?? {})) if (value !== void 0) url.searchParams.set(key, String(value));
		return url.toString();
	}
	function describe(error) {
		return error instanceof Error ? error.message : String(error);
	}

// clients/wallet/src/gateway/wait-for-final.ts
/** The service answers a long-poll after at most this long, so asking for more gains nothing. */
	const DEFAULT_MAX_POLL_MS = 3e4;
	/**
	* Reads until `isFinal` is true. Each read long-polls (`maxPollMs`, capped by what is left of
	* `timeoutMs`), so the service answers when the status changes rather than on a schedule; and
	* reads never come closer together than the `pollInMs` the service asked for, so a service that
	* answers at once (one that does not long-poll) is polled exactly as before. `isFinal` (not a
	* list of state names) decides when to stop, as the interface says.
	*/
	async function waitForFinalStatus(read, options) {
		const started = options.now();
		const longPoll = options.maxPollMs ?? 3e4;
		for (;;) {
			options.signal?.throwIfAborted();
			const askedAt = options.now();
			const left = options.timeoutMs === void 0 ? longPoll : Math.max(0, Math.min(longPoll, options.timeoutMs - (askedAt - started)));
			const status = await read({
				...longPoll > 0 ? { maxPollMs: left } : {},
				...options.signal ? { signal: options.signal } : {}
			});
			options.onStatus?.(status);
			if (status.isFinal) return status;
			const delay = Math.max(0, (status.pollInMs ?? options.fallbackPollMs ?? 1e3) - (options.now() - askedAt));
			if (options.timeoutMs !== void 0 && options.now() + delay - started > options.timeoutMs) {
				const error = /* @__PURE__ */ new Error(`payment not final after ${options.timeoutMs} ms (last status ${status.status})`);
				error.name = "TimeoutError";
				throw error;
			}
			if (delay > 0) await options.sleep(delay, options.signal);
		}
	}

// clients/wallet/src/gateway/client.ts
/**
	* Creates a client for the wallet-side gateway calls. Authentication is either a wallet
	* `apiKey`, a public `appId` with a `clientId`, or `paymentPage: true` for the hosted page's
	* own routes (base URL `{payBaseUrl}/_wallet`), which need no key. All calls share the interface's retry rule
	* and raise `GatewayError` / `PaymentExpiredError` / `GatewayNetworkError`.
	*/
	function createGatewayClient(config, options = {}) {
		const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
		const retry = retryPolicy(options.retry);
		const transport = {
			baseUrl: config.baseUrl,
			auth: authOf(config),
			fetch: fetchImpl,
			retry,
			...options.version !== void 0 ? { version: options.version } : {}
		};
		const call = (spec) => sendRequest(transport, spec);
		const path = (paymentId, suffix = "") => `v1/gateway/payment/${encodeURIComponent(requireId(paymentId))}${suffix}`;
		const client = {
			async getPayment(paymentId) {
				return readSummary(await call({
					method: "GET",
					path: path(paymentId)
				}));
			},
			async getOptions(paymentId, request) {
				const body = { accounts: request.accounts };
				if (request.refresh !== void 0) body.refresh = request.refresh;
				const query = request.includePaymentInfo === void 0 ? {} : { includePaymentInfo: request.includePaymentInfo };
				return readOptions(await call({
					method: "POST",
					path: path(paymentId, "/options"),
					query,
					body
				}));
			},
			async fetchAction(paymentId, request) {
				const body = {
					optionId: request.optionId,
					data: request.data
				};
				return readFetchedActions(await call({
					method: "POST",
					path: path(paymentId, "/fetch"),
					body
				}));
			},
			async confirm(paymentId, request, confirmOptions = {}) {
				const body = {
					optionId: request.optionId,
					results: request.results
				};
				if (request.collectedData !== void 0) body.collectedData = request.collectedData;
				const query = { maxPollMs: confirmOptions.maxPollMs };
				return readStatus(await call({
					method: "POST",
					path: path(paymentId, "/confirm"),
					query,
					body
				}));
			},
			async getStatus(paymentId, statusOptions = {}) {
				const spec = {
					method: "GET",
					path: path(paymentId, "/status"),
					query: { maxPollMs: statusOptions.maxPollMs }
				};
				if (statusOptions.signal) spec.signal = statusOptions.signal;
				return readStatus(await call(spec));
			},
			async cancel(paymentId) {
				return readCancel(await call({
					method: "POST",
					path: path(paymentId, "/cancel"),
					body: {}
				}));
			},
			waitForFinal(paymentId, waitOptions = {}) {
				return waitForFinalStatus((request) => client.getStatus(paymentId, request), {
					sleep: retry.sleep,
					now: options.now ?? Date.now,
					...waitOptions
				});
			}
		};
		return client;
	}
	function authOf(config) {
		if ("apiKey" in config) return { apiKey: config.apiKey };
		if ("appId" in config) return {
			appId: config.appId,
			clientId: config.clientId
		};
		return { paymentPage: true };
	}
	function requireId(paymentId) {
		if (!isPaymentId(paymentId)) throw new TypeError(`not a payment id: ${JSON.stringify(paymentId)}`);
		return paymentId;
	}

// clients/wallet/src/executor/errors.ts
/**
	* Raised instead of skipping an action or returning an undefined result: either would
	* misalign the confirm results and fail the payment on the service.
	*/
	var ActionExecutionError = class extends Error {
		code;
		/** Position in the resolved action list (after build actions were expanded). */
		actionIndex;
		chainId;
		method;
		constructor(code, message, where) {
			super(message);
			this.name = "ActionExecutionError";
			this.code = code;
			this.actionIndex = where.actionIndex;
			if (where.chainId !== void 0) this.chainId = where.chainId;
			if (where.method !== void 0) this.method = where.method;
		}
	};

// clients/wallet/src/executor/plan-action.ts
	const EVM_METHODS = /* @__PURE__ */ new Set([
		"eth_signTypedData_v4",
		"personal_sign",
		"eth_sendTransaction"
	]);
	const SOLANA_METHODS = /* @__PURE__ */ new Set(["solana_signTransaction"]);
	/** The service broadcasts Solana transactions itself; a wallet that broadcast too would race it. */
	const REFUSED_METHODS = /* @__PURE__ */ new Set(["solana_signAndSendTransaction"]);
	/**
	* Validates one wallet RPC action (namespace, method, signer, params) and returns the call
	* that will execute it. Validation is separate from execution so a whole option can be
	* checked before anything is signed or broadcast.
	*/
	function planAction(action, actionIndex, signers) {
		const { chainId, method } = action.walletRpc;
		const where = {
			actionIndex,
			chainId,
			method
		};
		const fail = (code, message) => {
			throw new ActionExecutionError(code, `action ${actionIndex} (${method} on ${chainId}): ${message}`, where);
		};
		const separator = chainId.indexOf(":");
		const namespace = separator > 0 && separator < chainId.length - 1 ? chainId.slice(0, separator) : "";
		if (namespace !== "eip155" && namespace !== "solana") fail("unsupported_namespace", `namespace "${namespace}" is not supported`);
		if (REFUSED_METHODS.has(method)) fail("refused_method", "the wallet signs only; the service broadcasts");
		if (!(namespace === "eip155" ? EVM_METHODS : SOLANA_METHODS).has(method)) fail("unknown_method", `unknown method for ${namespace}`);
		const params = parseParams(action.walletRpc.params, fail);
		if (namespace === "solana") {
			const signer = signers.solana ?? fail("missing_signer", "no Solana signer is configured");
			const transaction = solanaTransaction(params, fail);
			return () => signer.signTransaction(transaction, chainId);
		}
		const signer = signers.evm ?? fail("missing_signer", "no EVM signer is configured");
		if (method === "eth_signTypedData_v4") {
			const [address, typedData] = params;
			if (typeof address !== "string" || typeof typedData !== "string" && !isObject(typedData)) fail("invalid_params", "expected [address, typedData]");
			const json = typeof typedData === "string" ? typedData : JSON.stringify(typedData);
			return () => signer.signTypedData(address, json);
		}
		if (method === "personal_sign") {
			const [message, address] = params;
			if (typeof message !== "string" || typeof address !== "string") fail("invalid_params", "expected [message, address]");
			return () => signer.personalSign(address, message);
		}
		const [tx] = params;
		if (!isObject(tx)) fail("invalid_params", "expected [transaction]");
		return () => signer.sendTransaction(chainId, tx);
	}
	function parseParams(json, fail) {
		let value;
		try {
			value = JSON.parse(json);
		} catch {
			return fail("invalid_params", "params are not valid JSON");
		}
		return Array.isArray(value) ? value : fail("invalid_params", "params must be a JSON array");
	}
	/** Solana params are `[ { transaction: <base64> } ]`. */
	function solanaTransaction(params, fail) {
		const [first] = params;
		if (params.length !== 1 || !isObject(first) || typeof first.transaction !== "string" || first.transaction === "") return fail("invalid_params", "expected [{ transaction: <base64> }]");
		return first.transaction;
	}
	function isObject(value) {
		return typeof value === "object" && value !== null && !Array.isArray(value);
	}

// clients/wallet/src/executor/execute-actions.ts
/**
	* Replaces every build action, in place, by the wallet RPC actions it resolves to. The
	* resulting list is what gets executed, and the confirm results align with it one to one:
	* a build that resolves to two calls yields two results at its position.
	*/
	async function resolveBuildActions(actions, resolveBuild) {
		const resolved = [];
		for (const action of actions) {
			if (action.type === "walletRpc") {
				resolved.push(action);
				continue;
			}
			if (resolveBuild === void 0) throw new ActionExecutionError("unresolved_build", "a build action needs resolveBuild (the gateway fetch call)", { actionIndex: resolved.length });
			const expanded = await resolveBuild(action);
			if (expanded.length === 0) throw new ActionExecutionError("unresolved_build", "a build action resolved to no actions", { actionIndex: resolved.length });
			resolved.push(...expanded);
		}
		return resolved;
	}
	/**
	* Executes an option's actions in order and returns one `{ type: 'walletRpc', data: [value] }`
	* per resolved action, in the same order. Every action is validated (namespace, method,
	* signer, params) before the first one runs, so an option that cannot be completed fails
	* before anything is signed or broadcast.
	*/
	async function executeActions(actions, context) {
		const resolved = await resolveBuildActions(actions, context.resolveBuild);
		const plan = resolved.map((action, index) => planAction(action, index, context));
		const results = [];
		for (const [index, call] of plan.entries()) {
			const action = resolved[index];
			context.onAction?.(action, index);
			const value = await call();
			if (typeof value !== "string" || value === "") throw new ActionExecutionError("empty_result", `action ${index} returned no value`, {
				actionIndex: index,
				chainId: action.walletRpc.chainId,
				method: action.walletRpc.method
			});
			results.push({
				type: "walletRpc",
				data: [value]
			});
			if (action.walletRpc.method === "eth_sendTransaction" && index < plan.length - 1 && context.evm?.waitForReceipt) try {
				await context.evm.waitForReceipt(action.walletRpc.chainId, value);
			} catch (err) {
				throw new ActionExecutionError("transaction_failed", `action ${index}: ${err.message}`, {
					actionIndex: index,
					chainId: action.walletRpc.chainId,
					method: action.walletRpc.method
				});
			}
		}
		return results;
	}

// clients/wallet/src/signers/chain-ids.ts
/** Well-known Solana CAIP-2 references (genesis-hash prefixes). */
	const SOLANA_MAINNET = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
	const SOLANA_DEVNET = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
	/** Accepts `8453`, `"8453"`, `"0x2105"` or `"eip155:8453"`; returns the decimal reference. */
	function evmChainReference(chainId) {
		const text = String(chainId);
		const reference = text.startsWith("eip155:") ? text.slice(7) : text;
		const value = reference.startsWith("0x") ? BigInt(reference) : /^[0-9]+$/.test(reference) ? BigInt(reference) : -1n;
		if (value <= 0n) throw new TypeError(`not an EVM chain id: ${JSON.stringify(chainId)}`);
		return value.toString();
	}

// clients/wallet/src/signers/eip1193-signer.ts
/**
	* Adapts any EIP-1193 provider. Signing requests are forwarded unchanged, so the wallet's own
	* confirmation UI shows exactly what the service asked for. Before a typed-data signature and
	* before a transaction the provider is moved to the action's chain: wallets refuse
	* `eth_signTypedData_v4` whose domain `chainId` is not the active chain (MetaMask does).
	*/
	function eip1193Signer(provider, options = {}) {
		const call = async (method, params) => {
			const result = await provider.request({
				method,
				params
			});
			if (typeof result !== "string") throw new Error(`${method} returned ${typeof result}, expected a string`);
			return result;
		};
		const ensureChain = (chainId) => ensureEvmChain(provider, chainId, options.addableChains);
		return {
			async accounts() {
				const addresses = await provider.request({
					method: "eth_accounts",
					params: []
				});
				if (!Array.isArray(addresses)) throw new Error("eth_accounts did not return a list");
				return (options.chainIds ?? [await call("eth_chainId", [])]).map(evmChainReference).flatMap((reference) => addresses.filter((a) => typeof a === "string").map((address) => `eip155:${reference}:${address}`));
			},
			async signTypedData(address, typedDataJson) {
				const domainChain = typedDataChainId(typedDataJson);
				if (domainChain !== void 0) await ensureChain(domainChain);
				return call("eth_signTypedData_v4", [address, typedDataJson]);
			},
			personalSign(address, message) {
				return call("personal_sign", [message, address]);
			},
			async sendTransaction(chainId, tx) {
				await ensureChain(chainId);
				return call("eth_sendTransaction", [tx]);
			},
			async waitForReceipt(_chainId, txHash) {
				for (let waitMs = 500;; waitMs = Math.min(waitMs * 2, 4e3)) {
					const receipt = await provider.request({
						method: "eth_getTransactionReceipt",
						params: [txHash]
					});
					if (receipt) {
						if (receipt.status !== "0x1") throw new Error(`transaction ${txHash} reverted`);
						return;
					}
					await new Promise((resolve) => setTimeout(resolve, waitMs));
				}
			}
		};
	}
	/**
	* Moves the provider to `chainId` unless it is there already. Wallets signal an unknown chain
	* with 4902, but some wrap it (-32603 with data.originalError) and mobile wallets answer other
	* codes: any refused switch gets one add-then-switch attempt when `addableChains` describes the
	* chain (keyed by decimal reference). A buyer's own rejection (4001) is final.
	*/
	async function ensureEvmChain(provider, chainId, addableChains) {
		const wanted = evmChainReference(chainId);
		const active = await provider.request({
			method: "eth_chainId",
			params: []
		});
		if (typeof active === "string" && evmChainReference(active) === wanted) return;
		const hexId = `0x${BigInt(wanted).toString(16)}`;
		try {
			await provider.request({
				method: "wallet_switchEthereumChain",
				params: [{ chainId: hexId }]
			});
		} catch (switchError) {
			const addable = addableChains?.[wanted];
			if (!addable || errorCode(switchError) === 4001) throw switchError;
			await provider.request({
				method: "wallet_addEthereumChain",
				params: [{
					chainId: hexId,
					...addable
				}]
			});
			await provider.request({
				method: "wallet_switchEthereumChain",
				params: [{ chainId: hexId }]
			});
		}
	}
	/** The typed data's `domain.chainId` (number, decimal or hex string), or undefined when it names none. */
	function typedDataChainId(typedDataJson) {
		let parsed;
		try {
			parsed = JSON.parse(typedDataJson);
		} catch {
			return;
		}
		const chainId = parsed?.domain?.chainId;
		return typeof chainId === "number" || typeof chainId === "string" ? chainId : void 0;
	}
	function errorCode(error) {
		const code = error?.code;
		return typeof code === "number" ? code : void 0;
	}

// clients/wallet/src/util/base64.ts
	const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const LOOKUP = new Map([...ALPHABET].map((char, index) => [char, index]));
	/** Encodes bytes as standard, padded base64. */
	function bytesToBase64(bytes) {
		let out = "";
		for (let i = 0; i < bytes.length; i += 3) {
			const a = bytes[i] ?? 0;
			const b = bytes[i + 1] ?? 0;
			const c = bytes[i + 2] ?? 0;
			const triple = a << 16 | b << 8 | c;
			out += ALPHABET[triple >> 18 & 63];
			out += ALPHABET[triple >> 12 & 63];
			out += i + 1 < bytes.length ? ALPHABET[triple >> 6 & 63] : "=";
			out += i + 2 < bytes.length ? ALPHABET[triple & 63] : "=";
		}
		return out;
	}
	/** Decodes standard base64 (padding optional, whitespace ignored); throws on other characters. */
	function base64ToBytes(text) {
		const clean = text.replace(/\s+/g, "").replace(/=+$/, "");
		if (clean.length % 4 === 1) throw new TypeError("invalid base64 length");
		const out = new Uint8Array(Math.floor(clean.length * 3 / 4));
		let buffer = 0;
		let bits = 0;
		let index = 0;
		for (const char of clean) {
			const value = LOOKUP.get(char);
			if (value === void 0) throw new TypeError(`invalid base64 character ${JSON.stringify(char)}`);
			buffer = buffer << 6 | value;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				out[index++] = buffer >> bits & 255;
			}
		}
		return out;
	}

// clients/wallet/src/signers/wallet-standard-signer.ts
	const SOLANA_TESTNET = "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z";
	const STANDARD_CHAINS = {
		[SOLANA_MAINNET]: "solana:mainnet",
		[SOLANA_DEVNET]: "solana:devnet",
		[SOLANA_TESTNET]: "solana:testnet"
	};
	/**
	* The Wallet Standard's chain name (`solana:mainnet`, `solana:devnet`, `solana:testnet`) of a
	* CAIP-2 Solana id; `other` for a cluster the standard has no name for (a local validator or
	* the sandbox: `solana:localnet`), undefined when even that is not given.
	*/
	function standardSolanaChain(caip2, other) {
		const reference = caip2.startsWith("solana:") ? caip2.slice(7) : caip2;
		return STANDARD_CHAINS[reference] ?? other;
	}
	/**
	* Signs through a Wallet Standard wallet (Phantom, Solflare, Backpack in a browser) with
	* `solana:signTransaction` on raw bytes: no `@solana/web3.js` in the page. The wallet must hand
	* back the very message it was given with its signature in its own slot: a wallet that changed
	* the transaction (added an instruction, swapped the fee payer, bumped a priority fee) is refused
	* before anything reaches the service, since the buyer approved what the page showed, not that.
	*/
	function walletStandardSolanaSigner(wallet, account, options = {}) {
		return {
			async accounts(chainRefs) {
				return chainRefs.map((ref) => `solana:${ref}:${account.address}`);
			},
			async signTransaction(transactionBase64, chainId) {
				const feature = wallet.features["solana:signTransaction"];
				if (!feature) throw new Error("this wallet cannot sign Solana transactions (no solana:signTransaction)");
				const original = base64ToBytes(transactionBase64);
				const sent = parseWireTransaction(original);
				const slot = sent.signers.findIndex((key) => sameBytes(key, account.publicKey));
				if (slot < 0) throw new Error(`transaction does not require a signature from ${account.address}`);
				const chain = chainId === void 0 ? void 0 : standardSolanaChain(chainId, options.otherChain);
				const [output] = await feature.signTransaction({
					account,
					transaction: original,
					...chain ? { chain } : {}
				});
				if (!output) throw new Error("the wallet returned no signed transaction");
				const signed = parseWireTransaction(output.signedTransaction);
				if (!sameBytes(signed.message, sent.message)) throw new Error("the wallet changed the transaction it was asked to sign: refused");
				if (signed.signatures[slot].every((b) => b === 0)) throw new Error("the wallet returned the transaction without its signature");
				return bytesToBase64(output.signedTransaction);
			}
		};
	}
	/**
	* A serialized Solana transaction (legacy or v0): compact-u16 signature count, the 64-byte
	* signatures, then the message, whose header's first byte counts the required signers and whose
	* static account keys list them first.
	*/
	function parseWireTransaction(bytes) {
		const [count, afterCount] = compactU16(bytes, 0);
		const messageStart = afterCount + count * 64;
		if (count === 0 || messageStart >= bytes.length) throw new Error("not a Solana transaction");
		const signatures = Array.from({ length: count }, (_, i) => bytes.subarray(afterCount + i * 64, afterCount + (i + 1) * 64));
		const message = bytes.subarray(messageStart);
		const header = (message[0] & 128) !== 0 ? 1 : 0;
		const required = message[header];
		const [keyCount, keysStart] = compactU16(message, header + 3);
		if (required !== count || keyCount < required || keysStart + keyCount * 32 > message.length) throw new Error("not a Solana transaction");
		return {
			signatures,
			message,
			signers: Array.from({ length: required }, (_, i) => message.subarray(keysStart + i * 32, keysStart + (i + 1) * 32))
		};
	}
	function compactU16(bytes, offset) {
		let value = 0;
		for (let i = 0; i < 3; i += 1) {
			const byte = bytes[offset + i];
			if (byte === void 0) throw new Error("not a Solana transaction");
			value |= (byte & 127) << 7 * i;
			if ((byte & 128) === 0) return [value, offset + i + 1];
		}
		throw new Error("not a Solana transaction");
	}
	function sameBytes(a, b) {
		return a.length === b.length && a.every((value, i) => value === b[i]);
	}

// clients/wallet/src/collect-data/schema-fields.ts
/**
	* Lists the fields a wallet's own form must offer, from the option's `collectData.schema`
	* (JSON Schema). Only the top-level object is read: that is all the service's schema uses.
	*/
	function schemaFields(schema) {
		const root = asObject(schema);
		const required = new Set(stringList(root.required));
		const properties = asObject(root.properties);
		const fields = Object.entries(properties).map(([name, raw]) => {
			const property = asObject(raw);
			const field = {
				name,
				required: required.has(name)
			};
			for (const key of [
				"type",
				"title",
				"description",
				"format"
			]) if (typeof property[key] === "string") field[key] = property[key];
			return field;
		});
		for (const name of required) if (!(name in properties)) fields.push({
			name,
			required: true
		});
		return {
			fields,
			requiredAlternatives: [...objectList(root.anyOf), ...objectList(root.oneOf)].map((group) => stringList(group.required)).filter((g) => g.length > 0)
		};
	}
	function asObject(value) {
		return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
	}
	function stringList(value) {
		return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
	}
	function objectList(value) {
		return Array.isArray(value) ? value.map(asObject) : [];
	}

// clients/wallet/src/collect-data/validate.ts
/**
	* A minimal pre-send check of buyer data against the collection schema: required fields,
	* `anyOf`/`oneOf` required groups, unknown fields when `additionalProperties` is false, and
	* per-field type, const, enum, length and pattern. The service validates fully; this only
	* spares the buyer a round trip for obvious mistakes.
	*/
	function validateCollectedData(schema, values) {
		const root = asObject(schema);
		const properties = asObject(root.properties);
		const issues = [];
		const present = (name) => values[name] !== void 0 && values[name] !== "";
		for (const name of stringList(root.required)) if (!present(name)) issues.push({
			field: name,
			message: "is required"
		});
		const { requiredAlternatives } = schemaFields(schema);
		if (requiredAlternatives.length > 0 && !requiredAlternatives.some((group) => group.every(present))) {
			const wanted = requiredAlternatives.map((group) => group.join(" + ")).join(" or ");
			issues.push({
				field: requiredAlternatives[0]?.[0] ?? "",
				message: `fill in ${wanted}`
			});
		}
		for (const [name, value] of Object.entries(values)) {
			if (value === "") continue;
			if (!(name in properties)) {
				if (root.additionalProperties === false) issues.push({
					field: name,
					message: "is not an accepted field"
				});
				continue;
			}
			const problem = checkValue(asObject(properties[name]), value);
			if (problem !== null) issues.push({
				field: name,
				message: problem
			});
		}
		return issues;
	}
	function checkValue(property, value) {
		const type = property.type;
		if (type === "string" && typeof value !== "string") return "must be text";
		if (type === "boolean" && typeof value !== "boolean") return "must be true or false";
		if (type === "number" && typeof value !== "number") return "must be a number";
		if (type === "integer" && !Number.isInteger(value)) return "must be a whole number";
		if ("const" in property && property.const !== value) return `must be ${JSON.stringify(property.const)}`;
		if (Array.isArray(property.enum) && !property.enum.includes(value)) return "is not one of the allowed values";
		if (typeof value === "string") {
			if (typeof property.minLength === "number" && [...value].length < property.minLength) return `must have at least ${property.minLength} characters`;
			if (typeof property.maxLength === "number" && [...value].length > property.maxLength) return `must have at most ${property.maxLength} characters`;
			if (typeof property.pattern === "string" && !new RegExp(property.pattern, "u").test(value)) return "has the wrong format";
		}
		return null;
	}
	/** The wire shape confirm sends: `{ fields: [{ id, value }] }` with values as strings. */
	function toCollectedData(values) {
		return { fields: Object.entries(values).map(([id, value]) => ({
			id,
			value: String(value)
		})) };
	}

// server/pages/wallet-page/choose.ts
/**
	* Which option to offer first: fewest wallet prompts, and no transaction the buyer pays gas for.
	* One EIP-3009 signature beats a Permit2 approval plus signature, which beats a direct transfer.
	*/
	function rankOption(option) {
		const methods = option.actions.map((a) => a.type === "walletRpc" ? a.walletRpc.method : "build");
		const sends = methods.filter((m) => m === "eth_sendTransaction").length;
		const authorization = option.actions.some((a) => a.type === "walletRpc" && /WithAuthorization/.test(a.walletRpc.params));
		return sends * 10 + methods.length + (authorization ? 0 : 1);
	}
	function bestOption(options) {
		return [...options].sort((a, b) => rankOption(a) - rankOption(b))[0];
	}
	/** "10.5 USDC": the option's token amount from its base units, never through a float. */
	function tokenAmountText(option) {
		const display = option.amount.display;
		if (!display) return `${option.amount.value} (${option.amount.unit})`;
		const digits = option.amount.value.padStart(display.decimals + 1, "0");
		const whole = digits.slice(0, digits.length - display.decimals);
		const fraction = digits.slice(digits.length - display.decimals).replace(/0+$/, "");
		return `${whole}${fraction ? `.${fraction}` : ""} ${display.assetSymbol}`;
	}
	/** `eip155:31337:0xabc…` → `eip155:31337`. */
	function chainOfAccount(account) {
		return account.split(":").slice(0, 2).join(":");
	}
	/**
	* Where the money goes, as the wallet will show it: the EIP-3009 authorization's `to`, the
	* Permit2 witness's recipient, or the tagged transfer's recipient (ERC-20 `transfer(to, …)`).
	* Undefined when the action does not name it plainly (a Solana transaction built on fetch).
	*/
	function recipientOf(actions) {
		for (const action of actions) {
			let params;
			try {
				params = JSON.parse(action.walletRpc.params);
			} catch {
				continue;
			}
			if (action.walletRpc.method === "eth_signTypedData_v4") {
				const raw = params[1];
				const typed = typeof raw === "string" ? JSON.parse(raw) : raw;
				const message = typed.message ?? {};
				const witness = message.witness;
				const to = message.to ?? witness?.recipient ?? witness?.to ?? witness?.destination;
				if (typeof to === "string" && /WithAuthorization|Witness/.test(typed.primaryType ?? "")) return to;
			}
			if (action.walletRpc.method === "eth_sendTransaction") {
				const data = params[0]?.data ?? "";
				if (data.startsWith("0xa9059cbb") && data.length >= 74) return `0x${data.slice(34, 74)}`;
			}
		}
	}
	/** What each wallet prompt will be, in the buyer's words. */
	function stepText(action) {
		const { method, params } = action.walletRpc;
		if (method === "eth_signTypedData_v4") return /WithAuthorization/.test(params) ? "sign a transfer authorization (no gas)" : "sign a Permit2 transfer (no gas)";
		if (method === "eth_sendTransaction") return /0x095ea7b3/i.test(params) ? "approve Permit2 to move this token (a transaction; you pay its gas)" : "send the transfer (a transaction; you pay its gas)";
		if (method === "solana_signTransaction") return "sign the transfer (the network fee is paid for you)";
		return method;
	}

// server/pages/wallet-page/discovery.ts
/** How long announcements are awaited: wallets answer `requestProvider` synchronously; extensions injected late get this long. */
	const ANNOUNCE_WAIT_MS = 400;
	/**
	* The browser's wallets: EIP-6963 announcements (every EVM extension that supports it, each with
	* its own provider, so two wallets never fight over `window.ethereum`), `window.ethereum` only
	* when nothing announced itself (older extensions, wallets' in-app browsers), and Wallet Standard
	* wallets that can sign Solana transactions, registered before or after the page asked.
	* `onChange` fires as late wallets arrive.
	*/
	function discoverWallets(onChange) {
		const found = /* @__PURE__ */ new Map();
		const changed = () => onChange([...found.values()]);
		window.addEventListener("eip6963:announceProvider", (event) => {
			const detail = event.detail;
			if (!detail?.info?.uuid || typeof detail.provider?.request !== "function") return;
			found.set(`evm:${detail.info.uuid}`, {
				kind: "evm",
				id: `evm:${detail.info.uuid}`,
				name: detail.info.name,
				icon: detail.info.icon,
				provider: detail.provider
			});
			changed();
		});
		window.dispatchEvent(new Event("eip6963:requestProvider"));
		const register = (...wallets) => {
			for (const wallet of wallets) {
				if (!wallet.chains.some((chain) => chain.startsWith("solana:")) || !wallet.features["standard:connect"] || !wallet.features["solana:signTransaction"]) continue;
				found.set(`solana:${wallet.name}`, {
					kind: "solana",
					id: `solana:${wallet.name}`,
					name: wallet.name,
					icon: wallet.icon,
					wallet
				});
			}
			changed();
			return () => {};
		};
		const api = Object.freeze({ register });
		window.addEventListener("wallet-standard:register-wallet", (event) => {
			const callback = event.detail;
			if (typeof callback === "function") callback(api);
		});
		window.dispatchEvent(new CustomEvent("wallet-standard:app-ready", { detail: api }));
		return new Promise((resolve) => {
			setTimeout(() => {
				const injected = window.ethereum;
				if (![...found.values()].some((w) => w.kind === "evm") && injected && typeof injected.request === "function") {
					found.set("evm:injected", {
						kind: "evm",
						id: "evm:injected",
						name: "Browser wallet",
						icon: "",
						provider: injected
					});
					changed();
				}
				resolve([...found.values()]);
			}, ANNOUNCE_WAIT_MS);
		});
	}

// server/pages/wallet-page/outcomes.ts
/** Thrown by the page itself when the buyer's balance cannot cover the option. */
	var InsufficientBalanceError = class extends Error {};
	/** Thrown when the wallet could not be moved to the option's chain. */
	var WrongChainError = class extends Error {};
	/** An EIP-1193 / Wallet Standard error code, looked for where wallets put it (some nest the original). */
	function walletCode(error) {
		for (let e = error, depth = 0; e && depth < 4; depth += 1) {
			if (typeof e.code === "number") return e.code;
			e = e.cause ?? e.data?.originalError ?? null;
		}
	}
	/** What a failed attempt means to the buyer, and whether a fresh option is needed to try again. */
	function outcomeOf(error) {
		if (walletCode(error) === 4001 || /reject|denied|declined|cancel/i.test(String(error?.message))) return {
			text: "You declined in your wallet. Nothing was paid; you can try again.",
			tone: "bad",
			refresh: false
		};
		if (error instanceof WrongChainError) return {
			text: error.message,
			tone: "bad",
			refresh: false
		};
		if (error instanceof InsufficientBalanceError) return {
			text: error.message,
			tone: "bad",
			refresh: false
		};
		if (error instanceof PaymentExpiredError) return error.expired === "payment" ? {
			text: "This payment link has expired. Ask the merchant for a new link.",
			tone: "bad",
			refresh: false
		} : {
			text: "The price offered to your wallet expired before the payment went through. Nothing was paid: choose your wallet again for a fresh price.",
			tone: "bad",
			refresh: true
		};
		if (error instanceof GatewayError) return {
			text: `The payment service refused: ${error.message}`,
			tone: "bad",
			refresh: true
		};
		if (error instanceof ActionExecutionError) return {
			text: `Your wallet could not complete a step: ${error.message}`,
			tone: "bad",
			refresh: true
		};
		return {
			text: `Something went wrong: ${error?.message ?? String(error)}`,
			tone: "bad",
			refresh: true
		};
	}

// server/pages/wallet-page/pending.ts
	const key = (paymentId) => `mps-wallet-pending:${paymentId}`;
	/**
	* Kept in localStorage from the moment the wallet answered until the service has the confirm: a
	* direct transfer is on chain once sent, so a tab closed or reloaded before its confirm must not
	* lose it. The page confirms it again on its next load (confirm is idempotent on the service).
	* Storage that throws (private mode, disabled) only loses this safety net, never the payment:
	* a tagged transfer is still found on chain by the late-funds watcher.
	*/
	function savePending(paymentId, pending) {
		try {
			window.localStorage.setItem(key(paymentId), JSON.stringify(pending));
		} catch {}
	}
	function loadPending(paymentId) {
		try {
			const raw = window.localStorage.getItem(key(paymentId));
			const value = raw ? JSON.parse(raw) : null;
			return value && typeof value.optionId === "string" && Array.isArray(value.results) ? {
				optionId: value.optionId,
				results: value.results
			} : null;
		} catch {
			return null;
		}
	}
	function clearPending(paymentId) {
		try {
			window.localStorage.removeItem(key(paymentId));
		} catch {}
	}

// server/pages/wallet-page/wallet-access.ts
/** Asks the wallet for its accounts (its own connect prompt); a wallet that answers none has refused. */
	async function evmAccounts(provider) {
		const answer = await provider.request({
			method: "eth_requestAccounts",
			params: []
		});
		const addresses = Array.isArray(answer) ? answer.filter((a) => typeof a === "string" && /^0x[0-9a-fA-F]{40}$/.test(a)) : [];
		if (!addresses.length) throw Object.assign(/* @__PURE__ */ new Error("The wallet shared no account"), { code: 4001 });
		return addresses;
	}
	/**
	* The option's token balance of its account, read through the wallet's own node (`balanceOf`
	* by `eth_call`), the wallet being on the option's chain already. Null when the wallet cannot
	* say (no `eth_call`, a native coin): the service's own checks still stand behind the signature.
	*/
	async function evmBalance(provider, option) {
		const token = /\/erc20:(0x[0-9a-fA-F]{40})$/.exec(option.amount.unit)?.[1];
		const owner = option.account.split(":")[2];
		if (!token || !owner) return null;
		try {
			const data = `0x70a08231${owner.slice(2).toLowerCase().padStart(64, "0")}`;
			const answer = await provider.request({
				method: "eth_call",
				params: [{
					to: token,
					data
				}, "latest"]
			});
			return typeof answer === "string" && /^0x[0-9a-fA-F]+$/.test(answer) ? BigInt(answer) : null;
		} catch {
			return null;
		}
	}
	/** `standard:connect`: the wallet's own prompt; its first account with a Solana chain pays. */
	async function solanaConnect(wallet) {
		const { accounts } = await wallet.features["standard:connect"].connect();
		const account = accounts.find((a) => !a.chains || a.chains.some((c) => c.startsWith("solana:"))) ?? accounts[0];
		if (!account) throw Object.assign(/* @__PURE__ */ new Error("The wallet shared no account"), { code: 4001 });
		return account;
	}

// server/pages/wallet-page/main.ts
/**
	* The payment page's "Pay with a browser wallet" (browser-wallet-section.ts renders its HTML).
	* Built by `npm run build:pages` into static/wallet.js with `@mps/wallet`: the page uses the
	* SDK's gateway client (keyless, on the page's own routes), executor and signers, not a copy.
	*
	* Flow: find wallets → the buyer picks one → connect → options for its accounts → the best
	* option is shown as the wallet will ask it (amount, network, recipient, steps, form) → Pay:
	* chain switch (and add), balance check, each wallet prompt, confirm → the final status.
	*/
	const section = document.getElementById("browser-wallet");
	if (section) start(section);
	function start(root) {
		const el = (id) => document.getElementById(id);
		const paymentId = root.dataset.paymentId;
		const chains = JSON.parse(root.dataset.chains ?? "[]");
		const networks = JSON.parse(root.dataset.networks ?? "{}");
		const addable = JSON.parse(root.dataset.addable ?? "{}");
		const addableByRef = Object.fromEntries(Object.entries(addable).map(([caip2, p]) => [evmChainReference(caip2), p]));
		const client = createGatewayClient({
			baseUrl: new URL(root.dataset.apiBase, window.location.href).toString(),
			paymentPage: true
		});
		let chosen = null;
		let busy = false;
		/** Final: late wallet announcements no longer bring buttons back. */
		let done = false;
		root.hidden = false;
		const say = (text, tone = "info") => {
			el("bw-message").textContent = text;
			el("bw-message").dataset.tone = tone;
			root.dataset.state = tone === "bad" ? "error" : root.dataset.state;
		};
		const setState = (state) => root.dataset.state = state;
		function showWallets(wallets) {
			const list = el("bw-wallets");
			const usable = wallets.filter((w) => chains.some((c) => c.startsWith(w.kind === "evm" ? "eip155:" : "solana:")));
			list.replaceChildren(...usable.map((w) => {
				const button = document.createElement("button");
				button.type = "button";
				button.dataset.walletId = w.id;
				if (w.icon) button.append(Object.assign(document.createElement("img"), {
					src: w.icon,
					alt: ""
				}));
				button.append(`Pay with ${w.name}`);
				button.addEventListener("click", () => void connect(w));
				return button;
			}));
			el("bw-intro").textContent = usable.length ? "Choose the wallet to pay with. Nothing is signed until you press Pay." : "No browser wallet that can pay this payment was found. Scan the QR code with your phone’s wallet, or open this page in a wallet’s browser.";
			if (!chosen) setState(usable.length ? "wallets" : "none");
		}
		async function connect(w) {
			if (busy) return;
			busy = true;
			try {
				say(`Connecting to ${w.name}…`);
				const { accounts, signers, provider } = w.kind === "evm" ? await connectEvm(w.provider) : await connectSolana(w);
				const offer = await client.getOptions(paymentId, { accounts });
				const option = bestOption(offer.options.filter((o) => accounts.includes(o.account)));
				if (!option) throw new Error(`${w.name} has no account on a network this merchant accepts (${chains.map((c) => networks[c] ?? c).join(", ")}).`);
				await review(option, signers, provider);
				say("");
				setState("review");
			} catch (error) {
				say(outcomeOf(error).text, "bad");
			} finally {
				busy = false;
			}
		}
		async function connectEvm(provider) {
			const addresses = await evmAccounts(provider);
			const evmChains = chains.filter((c) => c.startsWith("eip155:"));
			return {
				accounts: evmChains.flatMap((c) => addresses.map((a) => `${c}:${a}`)),
				signers: { evm: eip1193Signer(provider, {
					chainIds: evmChains,
					addableChains: addableByRef
				}) },
				provider
			};
		}
		async function connectSolana(w) {
			const account = await solanaConnect(w.wallet);
			return {
				accounts: chains.filter((c) => c.startsWith("solana:")).map((c) => `${c}:${account.address}`),
				signers: { solana: walletStandardSolanaSigner(w.wallet, account, { otherChain: "solana:localnet" }) },
				provider: null
			};
		}
		async function review(option, signers, provider) {
			const plain = option.actions.flatMap((a) => a.type === "walletRpc" ? [a] : []);
			const chain = chainOfAccount(option.account);
			el("bw-amount").textContent = tokenAmountText(option);
			el("bw-network").textContent = networks[chain] ?? chain;
			el("bw-recipient").textContent = recipientOf(plain) ?? `${document.querySelector("h1")?.textContent ?? "the merchant"} (their own wallet)`;
			el("bw-account").textContent = option.account.split(":")[2] ?? option.account;
			el("bw-steps").textContent = option.actions.length === plain.length ? plain.map(stepText).join("; then ") : "sign the transfer (the network fee is paid for you)";
			const fields = option.collectData?.fields ?? [];
			el("bw-fields").replaceChildren(...fields.map(fieldInput));
			chosen = {
				option,
				signers,
				provider,
				fields
			};
			el("bw-review").hidden = false;
		}
		el("bw-form").addEventListener("submit", (event) => {
			event.preventDefault();
			pay();
		});
		async function pay() {
			if (busy || !chosen) return;
			const { option, signers, provider, fields } = chosen;
			const values = {};
			for (const f of fields) {
				const input = document.getElementById(`bw-field-${f.id}`);
				values[f.id] = f.type === "checkbox" ? input.checked : input.value.trim();
			}
			const issues = option.collectData ? validateCollectedData(option.collectData.schema, values) : [];
			if (issues.length) return say(`Please check the form: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}`, "bad");
			busy = true;
			el("bw-pay").disabled = true;
			try {
				setState("signing");
				const actions = await resolveBuildActions(option.actions, (build) => client.fetchAction(paymentId, {
					optionId: option.id,
					data: build.build.data
				}));
				if (provider) await prepareEvm(provider, option);
				const results = await executeActions(actions, {
					...signers,
					onAction: (action, index) => say(`Approve in your wallet: step ${index + 1} of ${actions.length}, ${stepText(action)}.`)
				});
				const collectedData = fields.length ? toCollectedData(values) : void 0;
				savePending(paymentId, {
					optionId: option.id,
					results
				});
				await confirm(option.id, results, collectedData);
			} catch (error) {
				const outcome = outcomeOf(error);
				say(outcome.text, "bad");
				if (outcome.refresh) chosen = null;
				if (outcome.refresh) el("bw-review").hidden = true;
			} finally {
				busy = false;
				el("bw-pay").disabled = false;
			}
		}
		/** Before anything is signed: the wallet on the option's chain, and enough of the token there. */
		async function prepareEvm(provider, option) {
			const chain = chainOfAccount(option.account);
			const ref = evmChainReference(chain);
			try {
				await ensureEvmChain(provider, chain, addableByRef);
			} catch (error) {
				if (outcomeOf(error).text.startsWith("You declined")) throw error;
				throw new WrongChainError(`Your wallet could not switch to ${networks[chain] ?? chain} (chain ${ref}). Add that network in your wallet, switch to it and try again.`);
			}
			const balance = await evmBalance(provider, option);
			if (balance !== null && balance < BigInt(option.amount.value)) throw new InsufficientBalanceError(`Your account holds less than ${tokenAmountText(option)} on ${networks[chain] ?? chain}. Nothing was signed.`);
		}
		async function confirm(optionId, results, collectedData) {
			say("Sent. Waiting for the payment service to confirm…");
			setState("confirming");
			let status = await client.confirm(paymentId, {
				optionId,
				results,
				...collectedData ? { collectedData } : {}
			}, { maxPollMs: 1e4 });
			clearPending(paymentId);
			while (!status.isFinal) status = await client.getStatus(paymentId, { maxPollMs: 1e4 });
			finish(status);
		}
		function finish(status) {
			done = true;
			el("bw-intro").hidden = true;
			el("bw-review").hidden = true;
			el("bw-wallets").replaceChildren();
			setState(status.status);
			if (status.status === "succeeded") say("Paid. The merchant has received the payment.", "ok");
			else say(`The payment ended ${status.status}${status.failureCode ? ` (${status.failureCode})` : ""}.`, "bad");
		}
		discoverWallets((wallets) => {
			if (!chosen && !done) showWallets(wallets);
		}).then((wallets) => {
			if (!chosen && !done) showWallets(wallets);
		});
		const pending = loadPending(paymentId);
		if (pending) {
			busy = true;
			confirm(pending.optionId, pending.results).catch((error) => {
				say(outcomeOf(error).text, "bad");
				clearPending(paymentId);
			}).finally(() => busy = false);
		}
	}
	function fieldInput(f) {
		const wrap = document.createElement("div");
		const label = Object.assign(document.createElement("label"), {
			htmlFor: `bw-field-${f.id}`,
			textContent: `${f.name}${f.required ? "" : " (optional)"}`
		});
		const input = Object.assign(document.createElement("input"), {
			id: `bw-field-${f.id}`,
			name: f.id,
			type: f.type,
			required: f.required
		});
		if (f.type === "checkbox") wrap.append(input, label);
		else wrap.append(label, input);
		return wrap;
	}

})();