package dev.flow.internal;

/**
 * The wake-up of one suspension. Whoever claims it first (the awaited operation, a timeout, a cancel,
 * the scheduler closing) resumes the flow; every later claim fails. Thread-safe.
 */
abstract class Ticket {

    /** Takes the right to resume the flow; {@code true} for exactly one caller per suspension. */
    abstract boolean claim();

    /** Whether nobody has claimed it yet: pollers stop watching once this is {@code false}. */
    abstract boolean live();

    /** Withdraws what this ticket registered (a timeout, a callback) once someone else claimed it. */
    abstract void release();
}
