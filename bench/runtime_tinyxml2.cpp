// bench/runtime workload for tinyxml2: generates an XML document of N records (about 200 bytes
// each), then parses it R times and walks it, printing a checksum so that every build must
// compute the same answer. usage: runtime_tinyxml2 RECORDS ROUNDS
#include "tinyxml2.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
  long records = argc > 1 ? std::atol(argv[1]) : 50000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  std::string doc = "<?xml version=\"1.0\"?>\n<catalog>\n";
  for (long i = 0; i < records; ++i) {
    doc += "  <item id=\"" + std::to_string(i) + "\" price=\"" + std::to_string(i % 997) +
           ".5\" flag=\"" + (i % 3 ? "true" : "false") + "\">\n    <name>Item &amp; number " +
           std::to_string(i) + "</name>\n    <!-- comment -->\n    <tags><tag>a</tag><tag>b" +
           std::to_string(i % 7) + "</tag></tags>\n  </item>\n";
  }
  doc += "</catalog>\n";
  unsigned long checksum = 0;
  for (int r = 0; r < rounds; ++r) {
    tinyxml2::XMLDocument xml;
    if (xml.Parse(doc.c_str(), doc.size()) != tinyxml2::XML_SUCCESS) {
      std::fprintf(stderr, "parse error: %s\n", xml.ErrorStr());
      return 1;
    }
    for (const tinyxml2::XMLElement *item = xml.RootElement()->FirstChildElement("item"); item;
         item = item->NextSiblingElement("item")) {
      checksum += item->UnsignedAttribute("id") + (item->BoolAttribute("flag") ? 1 : 0);
      checksum += (unsigned long)item->DoubleAttribute("price");
      const char *name = item->FirstChildElement("name")->GetText();
      for (const char *p = name; *p; ++p)
        checksum += (unsigned char)*p;
    }
    tinyxml2::XMLPrinter printer;
    xml.Print(&printer);
    checksum += printer.CStrSize();
  }
  std::printf("%zu bytes, checksum %lu\n", doc.size(), checksum);
  return 0;
}
