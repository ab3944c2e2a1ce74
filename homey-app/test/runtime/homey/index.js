'use strict';

// A stand-in for the `homey` module the Apps SDK runtime provides on a hub
// (the Homey CLI puts its own stub in node_modules at build time). Apps
// extend Homey.App; the test harness creates the `homey` instance (managers,
// settings, Flow cards) and sets it on the app before onInit, as the runtime
// does.

const { EventEmitter } = require('events');

class SimpleClass extends EventEmitter {
  log(...args) {
    if (process.env.HOMEY_APP_LOG) console.log(`[${this.constructor.name}]`, ...args);
  }

  error(...args) {
    if (process.env.HOMEY_APP_LOG) console.error(`[${this.constructor.name}]`, ...args);
    this.errors = this.errors ?? [];
    this.errors.push(args.map(String).join(' '));
  }
}

class App extends SimpleClass {
  async onInit() {}

  async onUninit() {}
}

class Driver extends SimpleClass {}
class Device extends SimpleClass {}

module.exports = { SimpleClass, App, Driver, Device };
