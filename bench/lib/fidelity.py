"""Comparing two per-site tables: DHAT's against this project's."""

from dataclasses import dataclass

from sites import explanation


@dataclass
class SiteRow:
    label: str
    dhat_count: int
    dhat_bytes: int
    ours_count: int
    ours_bytes: int
    explained: str = None

    @property
    def matches(self):
        return (self.dhat_count == self.ours_count
                and self.dhat_bytes == self.ours_bytes)


def compare(dhat_table, ours_table):
    """Rows for every site either side saw, mismatches first."""
    keys = set(dhat_table.counts) | set(ours_table.counts)
    rows = []
    for k in keys:
        d = dhat_table.counts.get(k, [0, 0])
        o = ours_table.counts.get(k, [0, 0])
        label = dhat_table.labels.get(k) or ours_table.labels.get(k)
        row = SiteRow(label, d[0], d[1], o[0], o[1])
        if not row.matches:
            row.explained = explanation(k)
        rows.append(row)
    rows.sort(key=lambda r: (r.matches, -max(r.dhat_count, r.ours_count),
                             r.label))
    return rows
