"""Game-agnostic building blocks: cards, randomness, variants, policies, the Game contract.

Nothing here imports pandas, click, matplotlib or dask.
"""
