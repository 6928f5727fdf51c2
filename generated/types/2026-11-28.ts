// generated from spec/ by `npm run generate` — do not edit
export interface paths {
    "/v1/gateway/payment/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the payment to pay
         * @description What the buyer is asked to pay, and to whom.
         */
        get: operations["gatewayGetPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gateway/payment/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decline a payment
         * @description The buyer declined: cancel a payment that has not been paid.
         */
        post: operations["gatewayCancelPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gateway/payment/{id}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a payment
         * @description Confirms the payment with the results of the option's actions, in order. `maxPollMs` waits
         *     (up to 30 s) for the status to change (to final, or back to `requires_action`) before answering.
         */
        post: operations["gatewayConfirmPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gateway/payment/{id}/fetch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fetch a build action
         * @description Resolves a `build` action of an option into executable walletRpc actions.
         */
        post: operations["gatewayFetchAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gateway/payment/{id}/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get payment options
         * @description The ways the buyer can pay from the accounts they hold: one option per account and accepted asset on its chain.
         */
        post: operations["gatewayGetPaymentOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gateway/payment/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a payment's status
         * @description The payment's status, for a wallet following it; `maxPollMs` long-polls until the status changes.
         */
        get: operations["gatewayGetPaymentStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List merchants
         * @description List the partner's merchants, newest first; deleted merchants are hidden.
         */
        get: operations["listMerchants"];
        put?: never;
        /**
         * Create a merchant
         * @description Create a merchant. Retries with the same `Idempotency-Key` and body return the first merchant.
         */
        post: operations["createMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a merchant's payments
         * @description The payments of the merchant in `Merchant-Id`.
         */
        get: operations["listMerchantPayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/{merchantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a merchant
         * @description A merchant's profile with its settlement destinations.
         */
        get: operations["getMerchant"];
        put?: never;
        post?: never;
        /**
         * Delete a merchant
         * @description Soft-delete: hidden from lists, no new payments. Deleting again answers the same.
         */
        delete: operations["deleteMerchant"];
        options?: never;
        head?: never;
        /**
         * Update a merchant
         * @description Change a merchant's name, email or logo; `iconUrl: null` removes the logo.
         */
        patch: operations["updateMerchant"];
        trace?: never;
    };
    "/v1/merchants/{merchantId}/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a merchant's settlements
         * @description The merchant's settlement destinations, crypto and fiat.
         */
        get: operations["listSettlements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/{merchantId}/settlements/crypto": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register crypto settlements
         * @description Register crypto settlement destinations; one per (merchant, asset).
         */
        post: operations["createCryptoSettlements"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/{merchantId}/settlements/crypto/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a settlement's destination
         * @description Change the destination wallet of a settlement.
         */
        put: operations["updateCryptoSettlement"];
        post?: never;
        /**
         * Remove a crypto settlement
         * @description Remove a settlement; later payments in that asset are no longer offered for it.
         */
        delete: operations["deleteCryptoSettlement"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/{merchant_id}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a merchant's payments (deprecated path form)
         * @deprecated
         * @description Deprecated: use `GET /v1/merchants/payments` with the `Merchant-Id` header. Kept with its
         *     original contract for integrations that have not moved: the key in `X-Api-Key` (or
         *     `Api-Key`), snake_case query parameters and snake_case payments.
         */
        get: operations["listMerchantPaymentsByPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments
         * @description Payments across the partner's merchants, newest first by default.
         */
        get: operations["listPayments"];
        put?: never;
        /**
         * Create a payment
         * @description Create a payment priced in fiat for the merchant in `Merchant-Id`; send the buyer to `gatewayUrl`.
         */
        post: operations["createPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment
         * @description The full record of a payment.
         */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a payment
         * @description Cancel a payment that has not been paid; only from `requires_action`.
         */
        post: operations["cancelPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment's status
         * @description Poll a payment's status: wait `pollInMs` between polls, stop when `isFinal`; or long-poll with
         *     `maxPollMs`, answered when the status changes. Prefer webhooks in production.
         */
        get: operations["getPaymentStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark a payment refunded
         * @description Mark a succeeded payment fully refunded (the refund itself is sent by the merchant). Once per payment.
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The partner's endpoints, newest first.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Register a receiver. The answer carries the signing secret, shown this once. A partner has at
         *     most 16 endpoints (deleted ones do not count); past that, 409 `webhook_endpoint_limit`.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Stops all deliveries to it, pending retries included. Deleting again answers 404.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Change the URL, the subscribed events, or turn the endpoint on or off.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an endpoint's deliveries
         * @description Deliveries to this endpoint, newest first, with each attempt's status code and duration.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/events/{eventId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver an event
         * @description Send one event to this endpoint again, with the same `webhook-id`.
         */
        post: operations["redeliverWebhookEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook secret
         * @description A new secret, shown once; the previous one keeps signing beside it for 24 hours.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Send a `webhook.test` event to this endpoint.
         */
        post: operations["sendTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An amount with its unit: `iso4217/<code>` or `caip19/<asset id>`; value in minor/base units. */
        Amount: {
            unit: string;
            value: string;
            display: components["schemas"]["AmountDisplay"];
        };
        /** @description Display metadata for an amount. */
        AmountDisplay: {
            assetSymbol: string;
            assetName: string;
            decimals: components["schemas"]["NonNegativeInt32"];
            iconUrl?: string;
            networkName?: string;
            networkIconUrl?: string;
        };
        /** @description Not executable: resolved by the fetch call into one or more walletRpc actions. */
        BuildAction: {
            /** @enum {string} */
            type: "build";
            data: components["schemas"]["BuildActionData"];
        };
        BuildActionData: {
            /** @description Opaque; send back in a fetch call to get the executable actions. */
            data: string;
        };
        /** @description CAIP-10 account id: `<namespace>:<chain_reference>:<address>`. */
        Caip10AccountId: string;
        /** @description CAIP-19 asset id: `<namespace>:<chain_reference>/<asset_namespace>:<asset_reference>`. */
        Caip19AssetId: string;
        CancelPaymentResponse: {
            paymentId: components["schemas"]["PaymentId"];
            status: components["schemas"]["PaymentStatus"];
            cancelledReason: string;
            cancelledAt: components["schemas"]["Timestamp"];
        };
        /**
         * @description Where the hosted payment page sends the buyer when the payment is final. Both must be
         *     `https://` URLs; in sandbox mode `http://` to `localhost`, `127.0.0.1` or `[::1]` is accepted
         *     too. Otherwise 400 `params_validation` with an issue on the field.
         */
        CheckoutConfig: {
            successUrl: string;
            errorUrl: string;
        };
        /** @description Information the buyer must give before confirming this option. */
        CollectData: {
            /** @description A page, scoped to this payment and option, that renders the form and submits it. */
            url: string;
            /** @description JSON Schema (2020-12) of the fields required. */
            schema: {
                [key: string]: unknown;
            };
            /**
             * @deprecated
             * @description The schema's fields as a flat list. Deprecated: prefer `url`, or `schema` for the full rules.
             */
            fields: components["schemas"]["CollectDataField"][];
        };
        /** @description One field of the form, for wallets that build a simple form themselves; the schema is the full rule. */
        CollectDataField: {
            /** @description The field's id, as sent in `collectedData.fields[].id`. */
            id: string;
            /** @description Its label. */
            name: string;
            /** @description Whether it must be given (a field required only as one of a choice, like email or phone, is not). */
            required: boolean;
            type: components["schemas"]["CollectDataFieldType"];
        };
        /**
         * @description How a form field is shown.
         * @enum {string}
         */
        CollectDataFieldType: "text" | "date" | "checkbox";
        CollectedData: {
            fields: components["schemas"]["CollectedField"][];
        };
        CollectedField: {
            id: string;
            value: string;
        };
        ConfirmPaymentRequest: {
            optionId: string;
            /** @description One per action of the option, in the same order; any other count is refused with `invalid_results`. */
            results: components["schemas"]["ConfirmResult"][];
            collectedData?: components["schemas"]["CollectedData"] | (never | null);
        };
        ConfirmPaymentResponse: {
            status: components["schemas"]["PaymentStatus"];
            isFinal: boolean;
            /**
             * Format: int32
             * @description Wait this long before polling status again; null when final.
             */
            pollInMs?: number | null;
            info?: components["schemas"]["PaymentInfo"] | (never | null);
        };
        /** @description The result of one executed action: a signature, a transaction hash, or a signed transaction. */
        ConfirmResult: {
            /** @enum {string} */
            type: "walletRpc";
            data: string[];
        };
        CreateCryptoSettlementsRequest: {
            /** @description All entries are registered, or none. */
            settlements: components["schemas"]["CryptoSettlementInput"][];
        };
        CreateMerchantRequest: {
            merchantName: components["schemas"]["MerchantName"];
            merchantEmail: components["schemas"]["MerchantEmail"];
            /**
             * @description HTTPS URL of a square logo (see the logo rules); null for none.
             * @default null
             */
            iconUrl: string | null;
            /** @description Ask buyers for information before they pay (see `collectData`); null: never. */
            dataCollection?: components["schemas"]["DataCollectionConfig"] | (never | null);
        };
        CreatePaymentRequest: {
            amount: components["schemas"]["PaymentAmountInput"];
            /**
             * Format: int64
             * @description Unix seconds; null or absent: 5 minutes from now. Must be in the future, and at most 30 days ahead.
             */
            expiresAt?: number | null;
            /** @description Your own order id. */
            referenceId: string;
            checkout?: components["schemas"]["CheckoutConfig"] | (never | null);
        };
        /** @description A new payment and where to send the buyer. */
        CreatePaymentResponse: {
            paymentId: components["schemas"]["PaymentId"];
            /** @description Open this link in a compatible wallet, or render it as a QR code. */
            gatewayUrl: string;
            status: components["schemas"]["PaymentStatus"];
            isFinal: boolean;
            /** @description Wait this long before polling status again. */
            pollInMs?: components["schemas"]["NonNegativeInt32"];
            /** @description Expiry, Unix seconds. */
            expiresAt: components["schemas"]["UnixSeconds"];
        };
        CreateRefundRequest: {
            paymentId: components["schemas"]["PaymentId"];
        };
        CreateWebhookEndpointRequest: {
            url: components["schemas"]["WebhookUrl"];
            enabledEvents: components["schemas"]["WebhookEventType"][];
            /** @default true */
            enabled: boolean;
        };
        /** @description Where payments in one asset are settled for a merchant. */
        CryptoSettlement: {
            id: components["schemas"]["CryptoSettlementId"];
            /** @description The token to settle in; one of the service's registered assets. */
            asset: components["schemas"]["RegisteredCaip19AssetId"];
            /** @description The merchant's account on the asset's chain. */
            destination: components["schemas"]["RegisteredCaip10AccountId"];
        };
        /** @description Crypto settlement identifier: `crypto_` and an opaque part. */
        CryptoSettlementId: string;
        CryptoSettlementInput: {
            asset: components["schemas"]["Caip19AssetId"];
            destination: components["schemas"]["Caip10AccountId"];
        };
        /** @description Opaque pagination cursor returned as `nextCursor`; pass it back unchanged. */
        Cursor: string;
        /**
         * @description Which of the merchant's payments ask the buyer for information before paying: those options
         *     carry `collectData` (a hosted form and its JSON Schema), and confirm needs the data.
         */
        DataCollectionConfig: {
            /** @description Payments at or above this amount need data; null: every payment. A payment in another currency needs data. */
            minAmount: components["schemas"]["FiatAmountInput"] | (never | null);
        };
        /** @description Event identifier: `evt_` and an opaque part; it is also the `webhook-id` header of every delivery of the event. */
        EventId: string;
        FetchRequest: {
            optionId: string;
            data: string;
        };
        FetchResponse: {
            actions: components["schemas"]["GatewayAction"][];
        };
        /** @description An amount in a fiat currency (`iso4217/<code>`), in its minor units. */
        FiatAmount: {
            unit: string;
            value: string;
            display: components["schemas"]["AmountDisplay"];
        };
        /** @description A fiat price: `iso4217/<code>` and the value in the currency's minor units (USD "100" = 1.00). */
        FiatAmountInput: {
            unit: string;
            /** @description Positive integer in minor units, e.g. "1050" for 10.50 USD or "1050" for 1050 JPY. */
            value: string;
        };
        /** @description Fiat settlement configuration; this service settles only in crypto, so lists are empty. */
        FiatSettlement: {
            id: string;
            status: string;
            bankType: string;
        };
        GatewayAction: components["schemas"]["WalletRpcAction"] | components["schemas"]["BuildAction"];
        /** @description The buyer as a wallet sees it: the paying account and the wallet app that confirmed. */
        GatewayBuyer: {
            /** @description The buyer's account, CAIP-10. */
            accountCaip10: string;
            /** @description The wallet app that confirmed the payment: the name of the account its gateway key or App-Id belongs to. */
            accountProviderName: string;
            /** @description That wallet app's icon, when its account has one. */
            accountProviderIcon?: string | null;
        };
        /** @description The merchant as a buyer sees it. */
        GatewayMerchant: {
            name: string;
            iconUrl: string | null;
        };
        /** @description What a wallet shows the buyer before they choose how to pay. */
        GatewayPaymentInfo: {
            status: components["schemas"]["PaymentStatus"];
            /** @description The price: fiat, or the token a payment priced in a token is paid in. */
            amount: components["schemas"]["Amount"];
            /** @description Unix seconds. */
            expiresAt: components["schemas"]["UnixSeconds"];
            merchant: components["schemas"]["GatewayMerchant"];
            /** @description Who paid, once a wallet confirmed the payment. */
            buyer?: components["schemas"]["GatewayBuyer"] | (never | null);
        };
        GetPaymentOptionsRequest: {
            /**
             * @description Every account of the wallet (CAIP-10), on every chain it supports; any number (the body limit
             *     bounds it). Accounts on chains the merchant does not accept are ignored; at most 50 of the rest are quoted.
             */
            accounts: string[];
            /** @description Option ids to quote again. */
            refresh?: string[] | null;
        };
        GetPaymentOptionsResponse: {
            options: components["schemas"]["PaymentOption"][];
            info?: components["schemas"]["GatewayPaymentInfo"] | (never | null);
            /** @description Present when any option needs data collection. */
            collectData?: components["schemas"]["CollectData"] | (never | null);
            /** @description Why there are no options, when there are none (e.g. no account on a chain the merchant accepts). */
            details?: {
                [key: string]: unknown;
            };
        };
        /**
         * Format: int32
         * @description A non-negative 32-bit count, bounded as the legacy contract states.
         */
        LegacyCount: number;
        /** @description A payment in the deprecated per-merchant list. */
        LegacyPayment: {
            payment_id: string;
            merchant_id: string;
            reference_id: string;
            status: components["schemas"]["LegacyPaymentStatus"];
            is_terminal: boolean;
            /** @description The wallet app that paid; empty until one confirmed the payment. */
            wallet_name: string;
            /** @description The chain's reference within its CAIP-2 namespace (e.g. `8453`), once paid. */
            chain_id: string | null;
            buyer_caip10: string | null;
            /** @description CAIP-19 asset id, without a prefix. */
            token_caip19: string | null;
            tx_hash: string | null;
            /**
             * Format: int32
             * @description Not tracked: always null.
             */
            nonce: number | null;
            /** @description In the token's base units (see `token_decimals`). */
            token_amount: string | null;
            /**
             * Format: int32
             * @description In the currency's minor units (cents); null when it exceeds a 32-bit integer.
             */
            fiat_amount: number | null;
            /** @description ISO 4217 code. */
            fiat_currency: string | null;
            created_at: string | null;
            last_updated_at: string | null;
            settled_at: string | null;
            /** @description `settled` once the payment's own transfer to the merchant is confirmed, else null. */
            settlement_status: string | null;
            settlement_tx_hash: string | null;
            token_symbol: string | null;
            /** Format: int32 */
            token_decimals: number | null;
            token_logo: string | null;
            chain_logo: string | null;
            wallet_logo: string | null;
        };
        LegacyPaymentList: {
            data: components["schemas"]["LegacyPayment"][];
            next_cursor: string | null;
            stats: components["schemas"]["LegacyPaymentStats"];
        };
        LegacyPaymentStats: {
            /** @description Distinct buyer accounts. */
            total_customers: components["schemas"]["LegacyCount"];
            /** @description Succeeded, not refunded payments in one currency: USD when the merchant took any, else the first by code (amounts in different currencies are not added up). */
            total_revenue: components["schemas"]["LegacyRevenueTotal"];
            total_transactions: components["schemas"]["LegacyCount"];
        };
        /**
         * @description Statuses of the deprecated list: it predates `cancelled`, so a cancelled payment reads `expired`.
         * @enum {string}
         */
        LegacyPaymentStatus: "requires_action" | "processing" | "succeeded" | "failed" | "expired";
        LegacyRevenueTotal: {
            /**
             * Format: double
             * @description In the currency's standard unit (e.g. 10.5 for 10.50 USD).
             */
            amount: number;
            currency: string;
        };
        /** @description A merchant with its logo. */
        Merchant: {
            id: components["schemas"]["MerchantId"];
            name: string;
            email: string | null;
            status: components["schemas"]["MerchantStatus"];
            createdAt: components["schemas"]["Timestamp"];
            iconUrl: string | null;
            /** @description Buyer data collection; null: never asked. */
            dataCollection?: components["schemas"]["DataCollectionConfig"] | (never | null);
        };
        /**
         * @description Email, as the interface describes it: the local part may not start with a dot nor contain two
         *     consecutive dots; the domain is dot-separated labels ending in an alphabetic label of 2+ letters.
         */
        MerchantEmail: string;
        /** @description Merchant identifier: `mrch_` and an opaque, time-sortable part. */
        MerchantId: string;
        MerchantList: {
            data: components["schemas"]["Merchant"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
            /**
             * Format: int64
             * @description How many merchants match the filters, over all pages.
             */
            totalCount: number;
        };
        /** @description Display name shown to buyers. */
        MerchantName: string;
        /**
         * @description Lifecycle of a merchant; a deleted merchant is `inactive` and hidden.
         * @enum {string}
         */
        MerchantStatus: "active" | "inactive" | "suspended";
        /** @description A merchant as answered on creation. */
        MerchantSummary: {
            id: components["schemas"]["MerchantId"];
            name: string;
            email: string | null;
            status: components["schemas"]["MerchantStatus"];
            createdAt: components["schemas"]["Timestamp"];
        };
        /** @description A merchant with its configured settlement destinations. */
        MerchantWithSettlements: {
            id: components["schemas"]["MerchantId"];
            name: string;
            email: string | null;
            status: components["schemas"]["MerchantStatus"];
            createdAt: components["schemas"]["Timestamp"];
            iconUrl: string | null;
            /** @description Buyer data collection; null: never asked. */
            dataCollection?: components["schemas"]["DataCollectionConfig"] | (never | null);
            settlements: components["schemas"]["SettlementList"];
        };
        /**
         * Format: int32
         * @description A count or duration that is never negative.
         */
        NonNegativeInt32: number;
        /** @description The full record of a payment. */
        Payment: {
            paymentId: components["schemas"]["PaymentId"];
            merchant: components["schemas"]["PaymentMerchant"];
            referenceId: string;
            isFinal: boolean;
            /** @description Same as `isFinal`: the payment will not change state again. */
            isTerminal: boolean;
            /**
             * Format: int32
             * @description Wait this long before polling again; null when final.
             */
            pollInMs: number | null;
            /** @description The fiat price; absent for a payment priced in a token. */
            fiatAmount?: components["schemas"]["FiatAmount"];
            /** @description What the buyer paid or is paying: the confirmed option, or from the start the price of a payment priced in a token. */
            tokenAmount?: components["schemas"]["TokenAmount"];
            buyer?: components["schemas"]["PaymentBuyer"];
            transaction?: components["schemas"]["PaymentTransaction"];
            info?: components["schemas"]["PaymentInfo"];
            failureCode?: components["schemas"]["PaymentFailureCode"];
            refund: components["schemas"]["PaymentRefund"];
            cancelledReason?: string;
            cancelledAt?: components["schemas"]["Timestamp"];
            createdAt: components["schemas"]["Timestamp"];
            lastUpdatedAt: components["schemas"]["Timestamp"];
            settledAt?: components["schemas"]["Timestamp"];
            /** @description Expiry, Unix seconds. */
            expiresAt: components["schemas"]["UnixSeconds"];
            /**
             * Format: int32
             * @description Grows with every state change; the same number appears in webhook events.
             */
            stateVersion: number;
            /** @description Present on a succeeded payment whose transaction is followed to its chain's finality. */
            finality?: components["schemas"]["PaymentFinality"];
            status: components["schemas"]["PaymentStatus"];
            /** @description Null until the payment's transfer is confirmed. */
            settlement: components["schemas"]["PaymentSettlementInformation"] | (never | null);
            /**
             * @description Present when transactions paid the merchant again after the payment succeeded, in the order
             *     found; each came with a `payment.paid_twice` event.
             */
            extraPayments?: components["schemas"]["PaymentExtraTransfer"][];
        };
        /**
         * @description The price of a payment. `iso4217/<code>`: a fiat price, `value` in the currency's minor units
         *     (at most 18 digits), converted to the token the buyer picks. `caip19/<asset id>`: priced in that
         *     token, `value` in its base units (its `decimals`: "1000000" is 1.00 of a 6-decimal token), paid
         *     exactly and only in that token, with no conversion. The asset must be one this service lists
         *     (`GET /sandbox` in the sandbox) and the merchant must have a settlement destination for it;
         *     otherwise 400 `params_validation` with an issue on `amount.unit`.
         */
        PaymentAmountInput: {
            unit: string;
            /** @description Positive integer in the unit's minor (fiat) or base (token) units; at most what one transfer of the token can carry. */
            value: string;
        };
        /** @description Who paid: the account the funds came from and the wallet app that paid with it. */
        PaymentBuyer: {
            /** @description The buyer's account, CAIP-10. */
            accountCaip10: string;
            /** @description The wallet app that confirmed the payment: the name of the account its gateway key or App-Id belongs to. */
            accountProviderName?: string;
            /** @description That wallet app's icon, when its account has one. */
            accountProviderIcon?: string;
        };
        /**
         * @description A transaction that paid the merchant again after the payment succeeded (paid twice): final on
         *     its chain, for one of the payment's options. The funds are the merchant's (the service holds
         *     none); settle with the buyer, e.g. by refunding it.
         */
        PaymentExtraTransfer: {
            /** @description Its transaction hash or signature. */
            txId: string;
            /** @description The chain as a CAIP-2 id. */
            network: string;
            /** @description What the merchant received, in the token's base units. */
            amount: components["schemas"]["TokenAmount"];
            /** @description When the service found it. */
            foundAt: components["schemas"]["Timestamp"];
        };
        /**
         * @description Why a payment failed, as far as the pinned version names it. A failure with a reason the
         *     version does not name (e.g. a transfer that reverted on chain) carries no `failureCode`; a new
         *     code is only ever added with a new dated version.
         * @enum {string}
         */
        PaymentFailureCode: "declined_user";
        /**
         * @description Where a succeeded payment's transaction stands against its chain's finality. `pending`: included
         *     deep enough to count as paid, still followed until the chain calls its block final (re-sent if
         *     that block is dropped). `final`: the chain calls it final. `reversed`: its block was dropped and
         *     it could not be sent again, so the merchant was not paid; the status stays `succeeded` (a final
         *     state) and a `payment.reversed` event is sent: refund nothing, ask the buyer to pay again.
         * @enum {string}
         */
        PaymentFinality: "pending" | "final" | "reversed";
        /** @description Payment identifier: `pay_` and an opaque, time-sortable part. */
        PaymentId: string;
        /** @description How a succeeded payment was paid. */
        PaymentInfo: {
            /** @description The transaction that moved the funds (hash or signature). */
            txId: string;
            /** @description What the buyer paid, in the token's base units. */
            optionAmount: components["schemas"]["Amount"];
        };
        PaymentList: {
            data: components["schemas"]["PaymentListItem"][];
            nextCursor: string | null;
            /** @description Over every payment matching the filters (all pages); a snapshot taken at the first page. */
            stats: components["schemas"]["PaymentStats"];
        };
        /** @description A payment in a list. */
        PaymentListItem: {
            paymentId: components["schemas"]["PaymentId"];
            merchant: components["schemas"]["PaymentMerchant"];
            referenceId: string;
            isFinal: boolean;
            /** @description Same as `isFinal`: the payment will not change state again. */
            isTerminal: boolean;
            /**
             * Format: int32
             * @description Wait this long before polling again; null when final.
             */
            pollInMs: number | null;
            /** @description The fiat price; absent for a payment priced in a token. */
            fiatAmount?: components["schemas"]["FiatAmount"];
            /** @description What the buyer paid or is paying: the confirmed option, or from the start the price of a payment priced in a token. */
            tokenAmount?: components["schemas"]["TokenAmount"];
            buyer?: components["schemas"]["PaymentBuyer"];
            transaction?: components["schemas"]["PaymentTransaction"];
            info?: components["schemas"]["PaymentInfo"];
            failureCode?: components["schemas"]["PaymentFailureCode"];
            refund: components["schemas"]["PaymentRefund"];
            cancelledReason?: string;
            cancelledAt?: components["schemas"]["Timestamp"];
            createdAt: components["schemas"]["Timestamp"];
            lastUpdatedAt: components["schemas"]["Timestamp"];
            settledAt?: components["schemas"]["Timestamp"];
            /** @description Expiry, Unix seconds. */
            expiresAt: components["schemas"]["UnixSeconds"];
            /**
             * Format: int32
             * @description Grows with every state change; the same number appears in webhook events.
             */
            stateVersion: number;
            /** @description Present on a succeeded payment whose transaction is followed to its chain's finality. */
            finality?: components["schemas"]["PaymentFinality"];
            /** @description `cancelled` appears from the preview version on; before it a cancelled payment lists as `expired`. */
            status: components["schemas"]["PaymentListStatus"];
            settlement: components["schemas"]["PaymentSettlement"];
        };
        /**
         * @description Status values the list filter accepts; the preview adds `cancelled`.
         * @enum {string}
         */
        PaymentListStatus: "requires_action" | "processing" | "succeeded" | "failed" | "expired" | "cancelled";
        PaymentMerchant: {
            id: string;
            name: string;
            iconUrl: string | null;
        };
        /** @description One way to pay: an account of the buyer, an asset, and the actions to execute in order. */
        PaymentOption: {
            id: string;
            /** @description The buyer's account (CAIP-10) this option pays from. */
            account: string;
            /** @description What the buyer pays, in the token's base units (rounded up: the merchant never receives less). */
            amount: components["schemas"]["Amount"];
            /** @description Estimated seconds until the payment is final. */
            etaS: components["schemas"]["NonNegativeInt32"];
            /** @description Quote deadline, Unix seconds: confirm before it or ask for options again. */
            expiresAt: components["schemas"]["UnixSeconds"];
            actions: components["schemas"]["GatewayAction"][];
            collectData?: components["schemas"]["CollectData"] | (never | null);
        };
        PaymentRefund: {
            refunded: boolean;
            refundedAt: string | null;
        };
        /**
         * @description Settlement in a list: funds go straight to the merchant's wallet, so a payment is settled by its
         *     own transfer once that is confirmed; `amount` and `txHash` are present exactly when `settled`.
         */
        PaymentSettlement: {
            settled: boolean;
            amount?: components["schemas"]["FiatAmount"] | components["schemas"]["TokenAmount"];
            txHash?: string;
        };
        /** @description Settlement on a payment's details; `successful` once the payment's transfer is confirmed. */
        PaymentSettlementInformation: {
            successful: components["schemas"]["PaymentSettlementTransfer"] | (never | null);
        };
        /** @description The transfer that settled a payment: the payment's own transfer to the merchant's destination. */
        PaymentSettlementTransfer: {
            /** @description Its transaction hash or signature. */
            txId: string;
            /** @description What the merchant received, in the token's base units. */
            amount: components["schemas"]["Amount"];
        };
        PaymentStats: {
            /** @description Succeeded, not refunded payments, per currency. */
            totalRevenue: components["schemas"]["RevenueTotal"][];
            /** Format: int64 */
            totalTransactions: number;
            /**
             * Format: int64
             * @description Distinct buyer accounts.
             */
            totalCustomers: number;
        };
        /**
         * @description Lifecycle of a payment. `requires_action` until the buyer pays; `processing` while the transfer
         *     is being confirmed on chain; then one final state.
         * @enum {string}
         */
        PaymentStatus: "requires_action" | "processing" | "succeeded" | "failed" | "expired" | "cancelled";
        PaymentStatusResponse: {
            status: components["schemas"]["PaymentStatus"];
            isFinal: boolean;
            /**
             * Format: int32
             * @description Wait this long before polling again; null when final.
             */
            pollInMs: number | null;
            /** @description Present when succeeded. */
            info?: components["schemas"]["PaymentInfo"];
            /** @description Present when failed. */
            failureCode?: components["schemas"]["PaymentFailureCode"];
            /** @description Present on a succeeded payment whose transaction is followed to its chain's finality. */
            finality?: components["schemas"]["PaymentFinality"];
        };
        PaymentTransaction: {
            /** @description The chain's id within its namespace, e.g. `8453` for Base (`eip155:8453`). */
            networkId: string;
            /** @description The chain as a CAIP-2 id, e.g. `eip155:8453` or `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
            network: string;
            hash?: string;
        };
        /** @description A full refund, recorded on the payment. */
        Refund: {
            paymentId: components["schemas"]["PaymentId"];
            /** @enum {boolean} */
            refunded: true;
            refundedAt: components["schemas"]["Timestamp"];
        };
        /** @description A stored CAIP-10 destination as answered: EVM and Solana addresses only, as above. */
        RegisteredCaip10AccountId: string;
        /**
         * @description A registered CAIP-19 asset id as answered: registered assets are EVM (hex) and Solana (base58)
         *     ids, so answers stay within the reference's narrower pattern (no `_`, `.` or `%`).
         */
        RegisteredCaip19AssetId: string;
        RevenueTotal: {
            /**
             * Format: double
             * @description In the currency's standard unit (e.g. 10.5 for 10.50 USD).
             */
            amount: number;
            currency: string;
        };
        SettlementList: {
            crypto: components["schemas"]["CryptoSettlement"][];
            fiat: components["schemas"]["FiatSettlement"][];
        };
        /** @description ISO 8601 timestamp in UTC with millisecond precision, e.g. `2026-11-22T08:47:31.123Z`. */
        Timestamp: string;
        /** @description An amount in a token (`caip19/<asset id>`), in its base units. */
        TokenAmount: {
            unit: string;
            value: string;
            display: components["schemas"]["AmountDisplay"];
        };
        /** @description A token symbol, e.g. `USDC` (no length bound: the reference has none, and an unknown symbol simply matches nothing). */
        TokenSymbol: string;
        /**
         * Format: int64
         * @description A Unix time in seconds.
         */
        UnixSeconds: number;
        UpdateCryptoSettlementRequest: {
            /** @description The new destination, on the same chain as the settlement's asset. */
            destination: components["schemas"]["Caip10AccountId"];
        };
        /** @description At least one field must be given (checked by the service: OpenAPI 3.0 has no minProperties here). */
        UpdateMerchantRequest: {
            merchantName?: components["schemas"]["MerchantName"];
            merchantEmail?: components["schemas"]["MerchantEmail"];
            /** @description HTTPS URL of a new logo; `null` removes the logo. */
            iconUrl?: string | null;
            /** @description New data-collection setting; `null` stops asking buyers. */
            dataCollection?: components["schemas"]["DataCollectionConfig"] | (never | null);
        };
        /** @description At least one field must be given. */
        UpdateWebhookEndpointRequest: {
            url?: components["schemas"]["WebhookUrl"];
            enabledEvents?: components["schemas"]["WebhookEventType"][];
            enabled?: boolean;
        };
        /** @description One field that failed validation. */
        ValidationIssue: {
            /** @description Where the problem is, e.g. `body.merchantEmail` or `header.Idempotency-Key`. */
            field: string;
            message: string;
        };
        WalletRpcAction: {
            /** @enum {string} */
            type: "walletRpc";
            data: components["schemas"]["WalletRpcActionData"];
        };
        /** @description A JSON-RPC request for the wallet to execute (sign or send). */
        WalletRpcActionData: {
            /** @description CAIP-2 chain the request is for, e.g. `eip155:8453` or `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
            chain_id: string;
            /** @description `eth_signTypedData_v4`, `eth_sendTransaction`, `personal_sign` or `solana_signTransaction`. */
            method: string;
            /** @description The method's parameters. */
            params: unknown[];
        };
        /** @description One POST to the receiver. */
        WebhookAttempt: {
            /** Format: int32 */
            attempt: number;
            at: components["schemas"]["Timestamp"];
            /**
             * Format: int32
             * @description The receiver's HTTP status; null when no answer came (refused, timeout, blocked address).
             */
            statusCode: number | null;
            /** Format: int32 */
            durationMs: number;
            /** @description Why an attempt without an HTTP status failed: `timeout` or `connection_failed` (never the socket's own message). */
            error: string | null;
        };
        /** @description Delivery of one event to one endpoint, with every attempt. */
        WebhookDelivery: {
            id: string;
            endpointId: components["schemas"]["WebhookEndpointId"];
            eventId: components["schemas"]["EventId"];
            eventType: string;
            /**
             * @description `pending` while attempts remain, `delivered` on a 2xx, `failed` when retries ran out or the endpoint is gone.
             * @enum {string}
             */
            status: "pending" | "delivered" | "failed";
            /** Format: int32 */
            attemptCount: number;
            /** Format: int32 */
            lastStatusCode: number | null;
            nextAttemptAt: string | null;
            createdAt: components["schemas"]["Timestamp"];
            deliveredAt: string | null;
            attempts: components["schemas"]["WebhookAttempt"][];
        };
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        /** @description Where and what the service posts. The secret is never shown again after create or rotate. */
        WebhookEndpoint: {
            id: components["schemas"]["WebhookEndpointId"];
            url: string;
            enabledEvents: components["schemas"]["WebhookEventType"][];
            /** @description False when turned off by the partner, or by the service after the receiver answered 410 Gone. */
            enabled: boolean;
            /** @description Why the service disabled the endpoint (`gone`), else null. */
            disabledReason: string | null;
            /** @description Until when the previous secret still signs beside the current one, after a rotation. */
            previousSecretExpiresAt: string | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /** @description Webhook endpoint identifier: `whep_` and an opaque, time-sortable part. */
        WebhookEndpointId: string;
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
        };
        /** @description An endpoint with its signing secret (`whsec_…`): answered once, on create and on rotate. */
        WebhookEndpointWithSecret: {
            endpoint: components["schemas"]["WebhookEndpoint"];
            /** @description Verify deliveries with it (Standard Webhooks). Store it now: it is never shown again. */
            secret: string;
        };
        /**
         * @description The events an endpoint can subscribe to.
         * @enum {string}
         */
        WebhookEventType: "payment.created" | "payment.processing" | "payment.requires_action" | "payment.succeeded" | "payment.failed" | "payment.expired" | "payment.cancelled" | "payment.refunded" | "payment.reversed" | "payment.paid_twice";
        /** @description HTTPS URL of a public receiver (loopback http:// only in sandbox mode). */
        WebhookUrl: string;
    };
    responses: never;
    parameters: {
        /** @description Unique key chosen by the caller, kept at least 24 hours per partner. */
        IdempotencyHeader: string;
        /** @description Paid in this asset: a CAIP-19 id or a token symbol. */
        "LegacyPaymentListQuery.asset": string;
        "LegacyPaymentListQuery.cursor": string;
        /** @description Created before (ISO 8601). */
        "LegacyPaymentListQuery.end_ts": string;
        "LegacyPaymentListQuery.limit": number;
        /** @description CAIP-2 chain the payment was paid on; several separated by commas (`eip155:8453,eip155:1`). */
        "LegacyPaymentListQuery.network": string;
        /**
         * @description `date`: by creation (the id). `amount`: by price, with each price unit apart, since a token's
         *     base units and a currency's minor units do not compare (nor do two currencies'): fiat-priced
         *     payments first, grouped by currency code, then token-priced ones grouped by CAIP-19 asset id,
         *     by amount within each group, ties by id. `sort_dir=desc` reverses the whole order (tokens first).
         */
        "LegacyPaymentListQuery.sort_by": "date" | "amount";
        "LegacyPaymentListQuery.sort_dir": "asc" | "desc";
        /** @description Created at or after (ISO 8601). */
        "LegacyPaymentListQuery.start_ts": string;
        /** @description One status or several (repeated); a cancelled payment counts as `expired` here. */
        "LegacyPaymentListQuery.status": components["schemas"]["LegacyPaymentStatus"][];
        /** @description Maximum time to long-poll for payment status, in milliseconds (capped at 30000). */
        LongPollQuery: number | null;
        MerchantIdHeader: string;
        OptionalIdempotencyHeader: string;
        /**
         * @deprecated
         * @description Deprecated, use `token_symbol`: paid in this asset, a CAIP-19 id or a token symbol.
         */
        "PaymentListQuery.asset": string;
        "PaymentListQuery.cursor": string;
        /** @description Created before (ISO 8601). */
        "PaymentListQuery.endTs": string;
        "PaymentListQuery.limit": number;
        /** @description CAIP-2 chain the payment was paid on; several separated by commas (`eip155:8453,eip155:1`). */
        "PaymentListQuery.network": string;
        /** @description Your reference contains this (any letter case). */
        "PaymentListQuery.referenceId": string;
        /**
         * @description `date`: by creation (the id). `amount`: by price, with each price unit apart, since a token's
         *     base units and a currency's minor units do not compare (nor do two currencies'): fiat-priced
         *     payments first, grouped by currency code, then token-priced ones grouped by CAIP-19 asset id,
         *     by amount within each group, ties by id. `desc` reverses the whole order (tokens first).
         */
        "PaymentListQuery.sortBy": "date" | "amount";
        "PaymentListQuery.sortDir": "asc" | "desc";
        /** @description Created at or after (ISO 8601). */
        "PaymentListQuery.startTs": string;
        "PaymentListQuery.status": components["schemas"]["PaymentListStatus"][];
        /** @description Paid in a token with one of these symbols (e.g. `USDC`, any chain; case-insensitive). A CAIP-19 id is refused here: use `asset`. */
        "PaymentListQuery.token_symbol": components["schemas"]["TokenSymbol"][];
        ReadIdempotencyHeader: string;
        "SdkHeaders.sdkName": string;
        "SdkHeaders.sdkPlatform": string;
        "SdkHeaders.sdkVersion": string;
        /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
        "VersionHeaders.svcVersion": string;
        /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
        "VersionHeaders.wcpVersion": string;
        /** @description A wallet app's public id (`app_…`), instead of `Api-Key`; needs `Client-Id`. */
        "WalletAppHeaders.appId": string;
        /** @description Any identifier of the wallet installation (1–128 characters); required with `App-Id`. */
        "WalletAppHeaders.clientId": string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    gatewayGetPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                /** @description A wallet app's public id (`app_…`), instead of `Api-Key`; needs `Client-Id`. */
                "App-Id"?: components["parameters"]["WalletAppHeaders.appId"];
                /** @description Any identifier of the wallet installation (1–128 characters); required with `App-Id`. */
                "Client-Id"?: components["parameters"]["WalletAppHeaders.clientId"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayPaymentInfo"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    gatewayCancelPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                /** @description A wallet app's public id (`app_…`), instead of `Api-Key`; needs `Client-Id`. */
                "App-Id"?: components["parameters"]["WalletAppHeaders.appId"];
                /** @description Any identifier of the wallet installation (1–128 characters); required with `App-Id`. */
                "Client-Id"?: components["parameters"]["WalletAppHeaders.clientId"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelPaymentResponse"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "invalid_state";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "invalid_state";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The payment is past its expiry: tell the buyer and offer to start again with a new link. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_expired";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    gatewayConfirmPayment: {
        parameters: {
            query?: {
                /** @description Maximum time to long-poll for payment status, in milliseconds (capped at 30000). */
                maxPollMs?: components["parameters"]["LongPollQuery"];
            };
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                /** @description A wallet app's public id (`app_…`), instead of `Api-Key`; needs `Client-Id`. */
                "App-Id"?: components["parameters"]["WalletAppHeaders.appId"];
                /** @description Any identifier of the wallet installation (1–128 characters); required with `App-Id`. */
                "Client-Id"?: components["parameters"]["WalletAppHeaders.clientId"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfirmPaymentRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfirmPaymentResponse"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "invalid_state" | "invalid_results" | "invalid_signature";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found" | "option_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "quote_expired" | "transaction_already_used" | "invalid_state";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The payment is past its expiry: tell the buyer and offer to start again with a new link. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_expired";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    gatewayFetchAction: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                /** @description A wallet app's public id (`app_…`), instead of `Api-Key`; needs `Client-Id`. */
                "App-Id"?: components["parameters"]["WalletAppHeaders.appId"];
                /** @description Any identifier of the wallet installation (1–128 characters); required with `App-Id`. */
                "Client-Id"?: components["parameters"]["WalletAppHeaders.clientId"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FetchRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FetchResponse"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "invalid_state";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found" | "option_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "quote_expired";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The payment is past its expiry: tell the buyer and offer to start again with a new link. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_expired";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    gatewayGetPaymentOptions: {
        parameters: {
            query?: {
                /** @description Include the payment's details in `info`. */
                includePaymentInfo?: boolean;
            };
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                /** @description A wallet app's public id (`app_…`), instead of `Api-Key`; needs `Client-Id`. */
                "App-Id"?: components["parameters"]["WalletAppHeaders.appId"];
                /** @description Any identifier of the wallet installation (1–128 characters); required with `App-Id`. */
                "Client-Id"?: components["parameters"]["WalletAppHeaders.clientId"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GetPaymentOptionsRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetPaymentOptionsResponse"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "invalid_state";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The payment is past its expiry: tell the buyer and offer to start again with a new link. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_expired";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    gatewayGetPaymentStatus: {
        parameters: {
            query?: {
                /** @description Maximum time to long-poll for payment status, in milliseconds (capped at 30000). */
                maxPollMs?: components["parameters"]["LongPollQuery"];
            };
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                /** @description A wallet app's public id (`app_…`), instead of `Api-Key`; needs `Client-Id`. */
                "App-Id"?: components["parameters"]["WalletAppHeaders.appId"];
                /** @description Any identifier of the wallet installation (1–128 characters); required with `App-Id`. */
                "Client-Id"?: components["parameters"]["WalletAppHeaders.clientId"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentStatusResponse"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    listMerchants: {
        parameters: {
            query?: {
                status?: components["schemas"]["MerchantStatus"];
                /** @description Free text matched against the merchant's name and id. */
                search?: string;
                cursor?: components["schemas"]["Cursor"];
                limit?: number;
            };
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MerchantList"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    createMerchant: {
        parameters: {
            query?: never;
            header: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                /** @description Unique key chosen by the caller, kept at least 24 hours per partner. */
                "Idempotency-Key": components["parameters"]["IdempotencyHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMerchantRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded and a new resource has been created as a result. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        merchant: components["schemas"]["MerchantSummary"];
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "missing_idempotency_key";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "idempotency_conflict" | "idempotency_in_progress";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An upstream dependency failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "bad_gateway";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    listMerchantPayments: {
        parameters: {
            query?: {
                /** @description Created at or after (ISO 8601). */
                startTs?: components["parameters"]["PaymentListQuery.startTs"];
                /** @description Created before (ISO 8601). */
                endTs?: components["parameters"]["PaymentListQuery.endTs"];
                status?: components["parameters"]["PaymentListQuery.status"];
                /** @description CAIP-2 chain the payment was paid on; several separated by commas (`eip155:8453,eip155:1`). */
                network?: components["parameters"]["PaymentListQuery.network"];
                /** @description Paid in a token with one of these symbols (e.g. `USDC`, any chain; case-insensitive). A CAIP-19 id is refused here: use `asset`. */
                token_symbol?: components["parameters"]["PaymentListQuery.token_symbol"];
                /**
                 * @deprecated
                 * @description Deprecated, use `token_symbol`: paid in this asset, a CAIP-19 id or a token symbol.
                 */
                asset?: components["parameters"]["PaymentListQuery.asset"];
                /** @description Your reference contains this (any letter case). */
                referenceId?: components["parameters"]["PaymentListQuery.referenceId"];
                /**
                 * @description `date`: by creation (the id). `amount`: by price, with each price unit apart, since a token's
                 *     base units and a currency's minor units do not compare (nor do two currencies'): fiat-priced
                 *     payments first, grouped by currency code, then token-priced ones grouped by CAIP-19 asset id,
                 *     by amount within each group, ties by id. `desc` reverses the whole order (tokens first).
                 */
                sortBy?: components["parameters"]["PaymentListQuery.sortBy"];
                sortDir?: components["parameters"]["PaymentListQuery.sortDir"];
                cursor?: components["parameters"]["PaymentListQuery.cursor"];
                limit?: components["parameters"]["PaymentListQuery.limit"];
            };
            header: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                "Merchant-Id": components["parameters"]["MerchantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Headers every operation accepts. Every answer names the version it was made under in both the
             *     `Svc-Version` and the `WCP-Version` response headers.A success answer with the version it was made under, declared where the reference declares it.
             */
            200: {
                headers: {
                    /** @description The API version this answer was made under (also in `Svc-Version`). */
                    "WCP-Version": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id" | "missing_merchant_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    getMerchant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                merchantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        merchant: components["schemas"]["MerchantWithSettlements"];
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    deleteMerchant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                merchantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: components["schemas"]["MerchantId"];
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    updateMerchant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                merchantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMerchantRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        merchant: components["schemas"]["Merchant"];
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    listSettlements: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                merchantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementList"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    createCryptoSettlements: {
        parameters: {
            query?: never;
            header: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                /** @description Unique key chosen by the caller, kept at least 24 hours per partner. */
                "Idempotency-Key": components["parameters"]["IdempotencyHeader"];
            };
            path: {
                merchantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCryptoSettlementsRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded and a new resource has been created as a result. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        settlements: components["schemas"]["CryptoSettlement"][];
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "missing_idempotency_key";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "settlement_asset_conflict" | "idempotency_conflict" | "idempotency_in_progress";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    updateCryptoSettlement: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                merchantId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCryptoSettlementRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CryptoSettlement"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    deleteCryptoSettlement: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                merchantId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: components["schemas"]["CryptoSettlementId"];
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    listMerchantPaymentsByPath: {
        parameters: {
            query?: {
                /** @description Created at or after (ISO 8601). */
                start_ts?: components["parameters"]["LegacyPaymentListQuery.start_ts"];
                /** @description Created before (ISO 8601). */
                end_ts?: components["parameters"]["LegacyPaymentListQuery.end_ts"];
                /** @description Paid in this asset: a CAIP-19 id or a token symbol. */
                asset?: components["parameters"]["LegacyPaymentListQuery.asset"];
                /** @description CAIP-2 chain the payment was paid on; several separated by commas (`eip155:8453,eip155:1`). */
                network?: components["parameters"]["LegacyPaymentListQuery.network"];
                /**
                 * @description `date`: by creation (the id). `amount`: by price, with each price unit apart, since a token's
                 *     base units and a currency's minor units do not compare (nor do two currencies'): fiat-priced
                 *     payments first, grouped by currency code, then token-priced ones grouped by CAIP-19 asset id,
                 *     by amount within each group, ties by id. `sort_dir=desc` reverses the whole order (tokens first).
                 */
                sort_by?: components["parameters"]["LegacyPaymentListQuery.sort_by"];
                sort_dir?: components["parameters"]["LegacyPaymentListQuery.sort_dir"];
                cursor?: components["parameters"]["LegacyPaymentListQuery.cursor"];
                limit?: components["parameters"]["LegacyPaymentListQuery.limit"];
                /** @description One status or several (repeated); a cancelled payment counts as `expired` here. */
                status?: components["parameters"]["LegacyPaymentListQuery.status"];
            };
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                merchant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LegacyPaymentList"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query?: {
                /** @description Created at or after (ISO 8601). */
                startTs?: components["parameters"]["PaymentListQuery.startTs"];
                /** @description Created before (ISO 8601). */
                endTs?: components["parameters"]["PaymentListQuery.endTs"];
                status?: components["parameters"]["PaymentListQuery.status"];
                /** @description CAIP-2 chain the payment was paid on; several separated by commas (`eip155:8453,eip155:1`). */
                network?: components["parameters"]["PaymentListQuery.network"];
                /** @description Paid in a token with one of these symbols (e.g. `USDC`, any chain; case-insensitive). A CAIP-19 id is refused here: use `asset`. */
                token_symbol?: components["parameters"]["PaymentListQuery.token_symbol"];
                /**
                 * @deprecated
                 * @description Deprecated, use `token_symbol`: paid in this asset, a CAIP-19 id or a token symbol.
                 */
                asset?: components["parameters"]["PaymentListQuery.asset"];
                /** @description Your reference contains this (any letter case). */
                referenceId?: components["parameters"]["PaymentListQuery.referenceId"];
                /**
                 * @description `date`: by creation (the id). `amount`: by price, with each price unit apart, since a token's
                 *     base units and a currency's minor units do not compare (nor do two currencies'): fiat-priced
                 *     payments first, grouped by currency code, then token-priced ones grouped by CAIP-19 asset id,
                 *     by amount within each group, ties by id. `desc` reverses the whole order (tokens first).
                 */
                sortBy?: components["parameters"]["PaymentListQuery.sortBy"];
                sortDir?: components["parameters"]["PaymentListQuery.sortDir"];
                cursor?: components["parameters"]["PaymentListQuery.cursor"];
                limit?: components["parameters"]["PaymentListQuery.limit"];
                /** @description Only these merchants. */
                merchantId?: string[];
            };
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Headers every operation accepts. Every answer names the version it was made under in both the
             *     `Svc-Version` and the `WCP-Version` response headers.A success answer with the version it was made under, declared where the reference declares it.
             */
            200: {
                headers: {
                    /** @description The API version this answer was made under (also in `Svc-Version`). */
                    "WCP-Version": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    createPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
                "Merchant-Id": components["parameters"]["MerchantIdHeader"];
                "Idempotency-Key"?: components["parameters"]["OptionalIdempotencyHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePaymentRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded and a new resource has been created as a result. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatePaymentResponse"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "merchant_not_payable" | "merchant_not_found" | "currency_not_priceable";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id" | "missing_merchant_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "idempotency_conflict" | "idempotency_in_progress";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
                "Merchant-Id": components["parameters"]["MerchantIdHeader"];
                "Idempotency-Key"?: components["parameters"]["ReadIdempotencyHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id" | "missing_merchant_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    cancelPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
                "Merchant-Id": components["parameters"]["MerchantIdHeader"];
                "Idempotency-Key"?: components["parameters"]["OptionalIdempotencyHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelPaymentResponse"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "invalid_state";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id" | "missing_merchant_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "invalid_state";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    getPaymentStatus: {
        parameters: {
            query?: {
                /** @description Maximum time to long-poll for payment status, in milliseconds (capped at 30000). */
                maxPollMs?: components["parameters"]["LongPollQuery"];
            };
            header: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                "Sdk-Name"?: components["parameters"]["SdkHeaders.sdkName"];
                "Sdk-Version"?: components["parameters"]["SdkHeaders.sdkVersion"];
                "Sdk-Platform"?: components["parameters"]["SdkHeaders.sdkPlatform"];
                "Merchant-Id": components["parameters"]["MerchantIdHeader"];
                "Idempotency-Key"?: components["parameters"]["ReadIdempotencyHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentStatusResponse"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id" | "missing_merchant_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payment_not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
                "Merchant-Id": components["parameters"]["MerchantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRefundRequest"];
            };
        };
        responses: {
            /**
             * @description Headers every operation accepts. Every answer names the version it was made under in both the
             *     `Svc-Version` and the `WCP-Version` response headers.A success answer with the version it was made under, declared where the reference declares it.
             */
            200: {
                headers: {
                    /** @description The API version this answer was made under (also in `Svc-Version`). */
                    "WCP-Version": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers" | "payment_not_succeeded";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id" | "missing_merchant_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "already_refunded";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded and a new resource has been created as a result. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request conflicts with the current state or an earlier request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "webhook_endpoint_limit";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: components["schemas"]["WebhookEndpointId"];
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                cursor?: components["schemas"]["Cursor"];
                limit?: number;
            };
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    redeliverWebhookEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has been accepted for processing, but processing has not yet completed. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders.svcVersion"];
                /** @description Same as `Svc-Version`, under the name wallet and partner SDKs send; `Svc-Version` wins when both are sent. */
                "WCP-Version"?: components["parameters"]["VersionHeaders.wcpVersion"];
            };
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has been accepted for processing, but processing has not yet completed. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description The request or its parameters are not acceptable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "params_validation" | "invalid_params" | "invalid_api_version" | "unknown_api_version" | "api_version_downgrade" | "conflicting_auth_headers";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @description Present on validation errors: one entry per failing field. */
                        issues?: components["schemas"]["ValidationIssue"][];
                    };
                };
            };
            /** @description No key, or a key that is not valid (or, on merchant-scoped operations, no `Merchant-Id`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "missing_api_key" | "invalid_api_key" | "missing_app_id" | "missing_client_id";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The key is valid but its scope does not cover this operation or merchant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "forbidden";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Nothing with this id is visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "not_found";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The body exceeds the size limit (1 MB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "payload_too_large";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Too many requests; retry after the `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "rate_limited";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description An unexpected failure inside the service; nothing about it is exposed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Human-readable explanation. */
                        message: string;
                        /**
                         * @description Machine-readable code; stable across versions.
                         * @enum {string}
                         */
                        code: "internal_error";
                        /** @description Additional structured details. */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
}
