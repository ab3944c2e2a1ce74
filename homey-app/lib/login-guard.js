'use strict';

// Rate limiting of failed logins on the LAN server: after `maxFailures`
// requests refused with 401 from one address within `windowMs`, that address
// gets 429 for `lockMs`, whatever it sends. The gateway library has no hook
// for this yet, so guardServer wraps the http.Server's request listeners;
// this module is self-contained so it can move into the gateway unchanged.

class LoginGuard {
  constructor({ maxFailures = 10, windowMs = 60_000, lockMs = 5 * 60_000, now = () => Date.now() } = {}) {
    this.maxFailures = maxFailures;
    this.windowMs = windowMs;
    this.lockMs = lockMs;
    this.now = now;
    /** address → {failures: number[] (times), lockedUntil: number} */
    this.byAddress = new Map();
  }

  /** Milliseconds `address` is still locked out for (0 when it is not). */
  blocked(address) {
    const entry = this.byAddress.get(address);
    if (!entry) return 0;
    const left = entry.lockedUntil - this.now();
    if (left > 0) return left;
    if (entry.lockedUntil) this.byAddress.delete(address);
    return 0;
  }

  /** Records a refused login; returns true when the address is now locked out. */
  failed(address) {
    const now = this.now();
    const entry = this.byAddress.get(address) ?? { failures: [], lockedUntil: 0 };
    entry.failures = entry.failures.filter((t) => now - t < this.windowMs);
    entry.failures.push(now);
    if (entry.failures.length >= this.maxFailures) {
      entry.lockedUntil = now + this.lockMs;
      entry.failures = [];
    }
    this.byAddress.set(address, entry);
    this.#prune(now);
    return entry.lockedUntil > now;
  }

  /** A request got through: the address's failures are forgotten. */
  succeeded(address) {
    const entry = this.byAddress.get(address);
    if (entry && !(entry.lockedUntil > this.now())) this.byAddress.delete(address);
  }

  /** Addresses locked out now. */
  lockedOut() {
    const now = this.now();
    return [...this.byAddress].filter(([, e]) => e.lockedUntil > now).map(([a]) => a);
  }

  #prune(now) {
    if (this.byAddress.size < 1000) return;
    for (const [a, e] of this.byAddress) {
      if (e.lockedUntil <= now && e.failures.every((t) => now - t >= this.windowMs)) this.byAddress.delete(a);
    }
  }
}

/**
 * Puts `guard` in front of every request listener of `server`: a locked-out
 * address gets 429 with Retry-After; 401 answers count as failures.
 */
function guardServer(server, guard, log = () => {}) {
  const listeners = server.listeners('request');
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    const address = req.socket.remoteAddress ?? '';
    const wait = guard.blocked(address);
    if (wait > 0) {
      const text = 'too many failed logins from this address: try again later\n';
      res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(Math.ceil(wait / 1000)), 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    res.once('finish', () => {
      if (res.statusCode === 401) {
        if (guard.failed(address)) log(`locked out ${address} after repeated failed logins`);
      } else if (res.statusCode < 400) {
        guard.succeeded(address);
      }
    });
    for (const listener of listeners) listener.call(server, req, res);
  });
}

module.exports = { LoginGuard, guardServer };
