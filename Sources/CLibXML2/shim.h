#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, and its encoding header then pulls in the system ICU headers,
// which clash with the ICU copy inside Swift's Foundation as soon as one module graph holds
// both. spk never touches the encoding-handler struct whose tail ICU adds, so leave ICU out.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
