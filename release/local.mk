# release: rules for this part of the tree (owned by its backend).
