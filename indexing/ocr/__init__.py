"""Reading scanned pages: OCR engines behind one protocol, and page layout."""
