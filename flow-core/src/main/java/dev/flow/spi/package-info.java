/**
 * Service-provider interfaces: how transports, future types and extra suspension points plug into
 * Flow. Application code does not need them.
 */
package dev.flow.spi;
