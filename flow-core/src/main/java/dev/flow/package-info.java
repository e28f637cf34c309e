/**
 * Flow's API: the blocking {@link dev.flow.Transport}, {@link dev.flow.Flow#await} and
 * {@link dev.flow.Flow#sleep}, the {@link dev.flow.SuspendPolicy}, the
 * {@link dev.flow.FlowScheduler} that runs flows and the {@link dev.flow.FlowLocal} values that
 * follow them.
 */
package dev.flow;
