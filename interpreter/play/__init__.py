"""Games played with the run-time stage: agents, tables, simulation, records, scenarios."""
