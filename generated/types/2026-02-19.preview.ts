// generated from spec/ by `npm run generate` — do not edit
export interface paths {
    "/v1/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description List the partner's merchants, newest first; deleted merchants are hidden. */
        get: operations["listMerchants"];
        put?: never;
        /** @description Create a merchant. Retries with the same `Idempotency-Key` and body return the first merchant. */
        post: operations["createMerchant"];
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
        /** @description A merchant's profile with its settlement destinations. */
        get: operations["getMerchant"];
        put?: never;
        post?: never;
        /** @description Soft-delete: hidden from lists, no new payments. Deleting again answers the same. */
        delete: operations["deleteMerchant"];
        options?: never;
        head?: never;
        /** @description Change a merchant's name, email or logo; `iconUrl: null` removes the logo. */
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
        /** @description The merchant's settlement destinations, crypto and fiat. */
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
        /** @description Register crypto settlement destinations; one per (merchant, asset). */
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
        /** @description Change the destination wallet of a settlement. */
        put: operations["updateCryptoSettlement"];
        post?: never;
        /** @description Remove a settlement; later payments in that asset are no longer offered for it. */
        delete: operations["deleteCryptoSettlement"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description CAIP-10 account id: `<namespace>:<chain_reference>:<address>`. */
        Caip10AccountId: string;
        /** @description CAIP-19 asset id: `<namespace>:<chain_reference>/<asset_namespace>:<asset_reference>`. */
        Caip19AssetId: string;
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
        };
        /** @description Where payments in one asset are settled for a merchant. */
        CryptoSettlement: {
            id: components["schemas"]["CryptoSettlementId"];
            /** @description The token to settle in; one of the service's registered assets. */
            asset: components["schemas"]["Caip19AssetId"];
            /** @description The merchant's account on the asset's chain. */
            destination: components["schemas"]["Caip10AccountId"];
        };
        /** @description Crypto settlement identifier: `crypto_` and an opaque part. */
        CryptoSettlementId: string;
        CryptoSettlementInput: {
            asset: components["schemas"]["Caip19AssetId"];
            destination: components["schemas"]["Caip10AccountId"];
        };
        /** @description Opaque pagination cursor returned as `nextCursor`; pass it back unchanged. */
        Cursor: string;
        /** @description Fiat settlement configuration; this service settles only in crypto, so lists are empty. */
        FiatSettlement: {
            id: string;
            status: string;
            bankType: string;
        };
        /** @description A merchant with its logo. */
        Merchant: {
            id: components["schemas"]["MerchantId"];
            name: string;
            email: string | null;
            status: components["schemas"]["MerchantStatus"];
            createdAt: components["schemas"]["Timestamp"];
            iconUrl: string | null;
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
            settlements: components["schemas"]["SettlementList"];
        };
        SettlementList: {
            crypto: components["schemas"]["CryptoSettlement"][];
            fiat: components["schemas"]["FiatSettlement"][];
        };
        /** @description ISO 8601 timestamp in UTC with millisecond precision, e.g. `2026-11-22T08:47:31.123Z`. */
        Timestamp: string;
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
        };
        /** @description One field that failed validation. */
        ValidationIssue: {
            /** @description Where the problem is, e.g. `body.merchantEmail` or `header.Idempotency-Key`. */
            field: string;
            message: string;
        };
    };
    responses: never;
    parameters: {
        /** @description Unique key chosen by the caller, kept at least 24 hours per partner. */
        IdempotencyHeader: string;
        /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
        VersionHeaders: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
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
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
    getMerchant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version for this request (`YYYY-MM-DD` or `YYYY-MM-DD.preview`); the partner's pinned default otherwise. Only the same or a newer version than the pinned one. */
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
                "Svc-Version"?: components["parameters"]["VersionHeaders"];
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
            /** @description No key, or a key that is not valid. */
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
