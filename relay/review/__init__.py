"""From observed changes to the leader's packet: each file ranked by risk (risk), with what the leader's
task says the run fixes (task_reading), the packet built within
its byte budget (packet), the run's patch riskiest hunks first (diff_view), the profile's test commands
measured (verify).
"""

__all__: list[str] = []
