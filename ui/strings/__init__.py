"""Per-lesson string tables (English and 简体中文), merged into ui.i18n.STRINGS."""
