"""From observed changes to the leader's packet: each file ranked by risk (risk), with what the leader's
task says the run fixes (task_reading), the packet built within
its byte budget (packet), the review read of the run's patch at the targets' lines (diff_view: its items, budget and telling hunks in view_items,
view_budget, telling; range_hunks), the profile's test commands
measured (verify).
"""

__all__: list[str] = []
