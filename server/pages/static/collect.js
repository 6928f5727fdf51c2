/* global document, window, fetch, atob, TextDecoder, URLSearchParams */
/**
 * The data-collection form: prefill from ?prefill=<base64 JSON>, validate in the page (the same
 * rules as the schema; the server checks again), post the data, then tell the host app through
 * every bridge a wallet may provide: React Native WebView, iOS WKWebView (messageHandlers.icBridge)
 * and window.parent. Messages: {"type":"IC_COMPLETE"} or {"type":"IC_ERROR","reason":"…"}.
 */
'use strict';
(function () {
  var root = document.getElementById('collect');
  if (!root) return;

  function signal(type, reason) {
    var msg = reason ? { type: type, reason: reason } : { type: type };
    var text = JSON.stringify(msg);
    try {
      if (window.ReactNativeWebView && window.ReactNativeWebView.postMessage) window.ReactNativeWebView.postMessage(text);
    } catch {
      /* a broken bridge must not stop the others */
    }
    try {
      var handlers = window.webkit && window.webkit.messageHandlers;
      if (handlers && handlers.icBridge) handlers.icBridge.postMessage(msg);
    } catch {
      /* idem */
    }
    try {
      if (window.parent && window.parent !== window) window.parent.postMessage(msg, '*');
    } catch {
      /* idem */
    }
  }

  var failed = root.getAttribute('data-error');
  if (failed) return signal('IC_ERROR', failed);

  var form = document.getElementById('collect-form');
  var statusBox = document.getElementById('form-status');
  var inputs = Array.prototype.slice.call(form.querySelectorAll('input'));
  var group = document.getElementById('group-any');

  function decodePrefill() {
    var raw = new URLSearchParams(window.location.search).get('prefill');
    if (!raw) return null;
    try {
      var bin = atob(raw.replace(/-/g, '+').replace(/_/g, '/'));
      var bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      var v = JSON.parse(new TextDecoder().decode(bytes));
      return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
    } catch {
      return null;
    }
  }

  // Prefill never ticks the terms: accepting them is the buyer's own act.
  var prefill = decodePrefill();
  if (prefill)
    inputs.forEach(function (input) {
      if (input.type !== 'checkbox' && typeof prefill[input.name] === 'string') input.value = prefill[input.name];
    });

  function validDate(s) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
    var d = new Date(s + 'T00:00:00Z');
    return !isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }

  function problemOf(input) {
    if (input.type === 'checkbox') return input.getAttribute('aria-required') === 'true' && !input.checked ? 'Please accept to continue.' : '';
    var v = input.value.trim();
    if (!v) return input.getAttribute('aria-required') === 'true' ? 'This field is required.' : '';
    var min = Number(input.getAttribute('data-min-length') || 0);
    if (v.length < min) return 'Please enter at least ' + min + ' characters.';
    var format = input.getAttribute('data-format');
    if (format === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) return 'Please enter a valid email address.';
    if (format === 'date' && !validDate(v)) return 'Please enter a valid date.';
    var pattern = input.getAttribute('data-pattern');
    if (pattern && !new RegExp(pattern).test(v)) return 'Please check the format: ' + (input.labels && input.labels[0] ? input.labels[0].textContent.replace(' *', '') : '') + '.';
    return '';
  }

  function show(id, message, input) {
    var el = document.getElementById(id);
    el.textContent = message;
    el.hidden = !message;
    if (input) input.setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  function validate() {
    var firstBad = null;
    inputs.forEach(function (input) {
      var p = problemOf(input);
      show(input.id + '-error', p, input);
      if (p && !firstBad) firstBad = input;
    });
    if (group) {
      var names = group.getAttribute('data-any-of').split(' ');
      var given = names.some(function (n) {
        return form.elements[n].value.trim() !== '';
      });
      show('group-any-error', given ? '' : 'Please give at least one of these.', null);
      if (!given && !firstBad) firstBad = form.elements[names[0]];
    }
    return firstBad;
  }

  function collect() {
    var data = {};
    inputs.forEach(function (input) {
      if (input.type === 'checkbox') data[input.name] = input.checked;
      else if (input.value.trim() !== '') data[input.name] = input.value.trim();
    });
    return data;
  }

  function showStatus(message) {
    statusBox.textContent = message;
    statusBox.hidden = !message;
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    showStatus('');
    var bad = validate();
    if (bad) {
      showStatus('Please correct the highlighted fields.');
      bad.focus();
      return;
    }
    var button = document.getElementById('submit');
    button.disabled = true;
    fetch(root.getAttribute('data-post-url'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data: collect() }) })
      .then(function (r) {
        return r.json().then(function (body) {
          return { ok: r.ok, status: r.status, body: body };
        });
      })
      .then(function (r) {
        if (r.ok) {
          form.hidden = true;
          document.getElementById('done').hidden = false;
          document.getElementById('done').focus();
          return signal('IC_COMPLETE');
        }
        button.disabled = false;
        (r.body.issues || []).forEach(function (i) {
          var input = form.elements[i.field];
          if (input && input.id) show(input.id + '-error', i.message, input);
        });
        showStatus(r.body.message || 'The details could not be sent.');
        if (r.status !== 400) signal('IC_ERROR', (r.body.details && r.body.details.reason) || r.body.code || 'submit_failed');
      })
      .catch(function () {
        button.disabled = false;
        showStatus('The details could not be sent. Check your connection and try again.');
      });
  });
})();
