/* global document, window, fetch, setTimeout, clearTimeout, setInterval, clearInterval */
/**
 * The payment page's live part: a countdown to expiry and the payment's state, polled from the
 * page's public state URL at the pace the service asks (pollInMs). The words match the server's
 * (payment-page.ts), so the page reads the same before and after the script runs.
 */
'use strict';
(function () {
  var TEXT = {
    requires_action: ['Waiting for payment', 'Scan the code with your wallet, or open the link in it.'],
    processing: ['Payment received — confirming', 'Your wallet sent the payment; the network is confirming it.'],
    succeeded: ['Paid', 'The payment is complete. You can close this page.'],
    failed: ['Payment failed', 'The payment did not go through. No funds were taken; you can try again with a new link.'],
    expired: ['This payment link has expired', 'Ask the merchant for a new link.'],
    cancelled: ['Payment cancelled', 'This payment was cancelled. Ask the merchant for a new link if you still want to pay.'],
  };
  var root = document.getElementById('payment');
  if (!root) return;
  var stateUrl = root.getAttribute('data-state-url');
  var expiresAtMs = Number(root.getAttribute('data-expires-at')) * 1000;
  // Server time minus device time: the countdown follows the service's clock.
  var skew = Number(root.getAttribute('data-now')) - Date.now();
  var countdown = document.getElementById('countdown');
  var timer = null;
  var next = null;
  var shown = root.getAttribute('data-status');

  function remaining(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var hh = Math.floor(s / 3600);
    var mm = Math.floor((s % 3600) / 60);
    var ss = String(s % 60).padStart(2, '0');
    return hh ? hh + ':' + String(mm).padStart(2, '0') + ':' + ss : mm + ':' + ss;
  }

  function render(state) {
    root.setAttribute('data-final', String(state.isFinal));
    if (state.status !== shown) {
      shown = state.status;
      root.setAttribute('data-status', state.status);
      var t = TEXT[state.status] || [state.status, ''];
      document.getElementById('status-title').textContent = t[0];
      document.getElementById('status-detail').textContent = t[1];
    }
    if (state.isFinal && timer) clearInterval(timer);
    if (state.isFinal && state.redirectUrl)
      setTimeout(function () {
        window.location.assign(state.redirectUrl);
      }, 1500);
  }

  /** One pending poll at a time: expiry asks for one at once, replacing the scheduled one. */
  function schedule(ms) {
    if (next) clearTimeout(next);
    next = setTimeout(poll, ms);
  }

  function poll() {
    next = null;
    fetch(stateUrl, { cache: 'no-store', headers: { Accept: 'application/json' } })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (state) {
        if (!state) return schedule(5000);
        render(state);
        if (!state.isFinal) schedule(state.pollInMs || 2000);
      })
      .catch(function () {
        schedule(5000);
      });
  }

  function tick() {
    var left = expiresAtMs - (Date.now() + skew);
    countdown.textContent = remaining(left);
    if (left <= 0 && timer) {
      clearInterval(timer);
      timer = null;
      schedule(0);
    }
  }

  if (root.getAttribute('data-final') !== 'true') {
    timer = setInterval(tick, 1000);
    tick();
    poll();
  }
})();
