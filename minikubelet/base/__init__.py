"""The foundation under every layer: bilingual messages, bounded file reads, trace hooks. Ours."""
