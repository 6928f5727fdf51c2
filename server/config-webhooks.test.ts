import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { WEBHOOK_RETRY_SCHEDULE_MS } from './domain/webhooks/schedule.ts';

describe('webhook configuration', () => {
  it('accepts loopback receivers in the sandbox only, unless WEBHOOK_ALLOW_LOOPBACK says otherwise', () => {
    expect(loadConfig({}).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ SERVICE_MODE: 'production' }).webhookAllowLoopback).toBe(false);
    expect(loadConfig({ SERVICE_MODE: 'production', WEBHOOK_ALLOW_LOOPBACK: 'on' }).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'off' }).webhookAllowLoopback).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'yes' })).toThrow(/WEBHOOK_ALLOW_LOOPBACK/);
  });

  it('retries on the Standard schedule unless WEBHOOK_RETRY_SCHEDULE_S gives seconds between attempts', () => {
    expect(loadConfig({}).webhookRetryScheduleMs).toEqual(WEBHOOK_RETRY_SCHEDULE_MS);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE_S: '0, 5,10,20' }).webhookRetryScheduleMs).toEqual([0, 5000, 10_000, 20_000]);
  });

  it('refuses a schedule that is not whole seconds up to a day, naming the variable', () => {
    for (const bad of ['5,,10', '-1', '1.5', 'soon', '86401', Array(21).fill('1').join(',')]) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_S: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_S: bad })).toThrow(/WEBHOOK_RETRY_SCHEDULE_S/);
    }
  });
});
