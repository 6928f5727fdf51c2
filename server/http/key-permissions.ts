import type { KeyPermission } from '../domain/partners/records.ts';
import type { OperationId } from './operations.ts';

/**
 * The permission a partner key needs for each operation, by the dashboard's names: a key made by a
 * developer holds the developer's permissions only (issue 30 item 1). Gateway operations (wallet
 * and App-Id keys) need none. Typed over every operationId, so an operation added to the spec
 * fails `tsc` until it is classified here.
 */
export const OPERATION_PERMISSION: Record<OperationId, KeyPermission | null> = {
  gatewayGetPayment: null,
  gatewayCancelPayment: null,
  gatewayConfirmPayment: null,
  gatewayFetchAction: null,
  gatewayGetPaymentOptions: null,
  gatewayGetPaymentStatus: null,
  createMerchant: 'merchants:write',
  listMerchants: 'read',
  listMerchantPayments: 'read',
  getMerchant: 'read',
  updateMerchant: 'merchants:write',
  deleteMerchant: 'merchants:write',
  // Where a merchant is paid out: the dashboard's merchants:write too (settlements page).
  listSettlements: 'read',
  createCryptoSettlements: 'merchants:write',
  updateCryptoSettlement: 'merchants:write',
  deleteCryptoSettlement: 'merchants:write',
  listMerchantPaymentsByPath: 'read',
  createPayment: 'payments:create',
  listPayments: 'read',
  getPayment: 'read',
  cancelPayment: 'payments:write',
  getPaymentStatus: 'read',
  createRefund: 'payments:write',
  createWebhookEndpoint: 'webhooks:write',
  listWebhookEndpoints: 'read',
  getWebhookEndpoint: 'read',
  updateWebhookEndpoint: 'webhooks:write',
  deleteWebhookEndpoint: 'webhooks:write',
  listWebhookDeliveries: 'read',
  redeliverWebhookEvent: 'webhooks:write',
  rotateWebhookSecret: 'webhooks:write',
  sendTestWebhook: 'webhooks:write',
};

/** The permission this operation needs from a partner key; an unknown operation needs everything. */
export const operationPermission = (operationId: string): KeyPermission | null | undefined => (OPERATION_PERMISSION as Record<string, KeyPermission | null>)[operationId];
