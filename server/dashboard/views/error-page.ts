import type { Response } from 'express';
import { esc } from '../../pages/html.ts';
import { bare, sendPage } from './shell.ts';

/** An error as a page (never a stack trace): 403 refused, 404 unknown, 429 throttled. */
export function sendErrorPage(res: Response, status: number, title: string, message: string): void {
  sendPage(res, status, bare(title, `<div class="card"><h1>${esc(title)}</h1><p role="alert">${esc(message)}</p><p><a href="/dashboard">Back to the dashboard</a></p></div>`));
}
