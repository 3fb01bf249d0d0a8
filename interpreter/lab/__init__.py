"""The laboratory: many games simulated, variants compared, the numbers with their
intervals, reports, plots and outputs, games on a cluster."""
